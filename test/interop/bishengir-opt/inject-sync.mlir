// REQUIRES: bishengir
// bishengir-opt's own sync insertion on IR printed by us: the set_flag / wait_flag /
// pipe_barrier ops it inserts parse back in ascend-opt and verify (distinct pipes,
// event ids in range), so bishengir's sync can be compared with ours op by op.
// RUN: ascend-opt %s | %bishengir_opt -hivm-inject-sync | ascend-opt | filecheck %s

// CHECK-LABEL: func.func @vadd
// CHECK: hivm.hir.load
// CHECK: hivm.hir.load
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID{{[0-7]}}>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID{{[0-7]}}>]
// CHECK-NEXT: hivm.hir.vadd
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID{{[0-7]}}>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID{{[0-7]}}>]
// CHECK-NEXT: hivm.hir.store
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_ALL>]
module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  func.func @vadd(%a: memref<256xf32, #hivm.address_space<gm>>, %b: memref<256xf32, #hivm.address_space<gm>>, %c: memref<256xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %c0 = arith.constant 0 : i64
    %c1024 = arith.constant 1024 : i64
    %c2048 = arith.constant 2048 : i64
    %ua = hivm.hir.pointer_cast(%c0) : memref<256xf32, #hivm.address_space<ub>>
    %ub = hivm.hir.pointer_cast(%c1024) : memref<256xf32, #hivm.address_space<ub>>
    %uc = hivm.hir.pointer_cast(%c2048) : memref<256xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%a : memref<256xf32, #hivm.address_space<gm>>) outs(%ua : memref<256xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%b : memref<256xf32, #hivm.address_space<gm>>) outs(%ub : memref<256xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ua, %ub : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%uc : memref<256xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%uc : memref<256xf32, #hivm.address_space<ub>>) outs(%c : memref<256xf32, #hivm.address_space<gm>>)
    return
  }
}
