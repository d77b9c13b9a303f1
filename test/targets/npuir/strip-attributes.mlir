// Our own attributes (ascend.*, tile.*) are stripped; bishengir's are kept.
// RUN: ascend-opt %s -t npuir | filecheck %s

// CHECK: builtin.module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
// CHECK-NEXT: func.func @k(%{{.*}}: memref<64xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
// CHECK-NOT: ascend.
// CHECK-NOT: tile.
// CHECK: hivm.hir.load ins(%{{.*}} : memref<64xf32, #hivm.address_space<gm>>) outs(%{{.*}} : memref<64xf32, #hivm.address_space<ub>>){{$}}
// CHECK: }{{$}}
// CHECK-NOT: ascend.
// CHECK: func.return
builtin.module attributes {hacc.target = #hacc.target<"Ascend910B1">, ascend.schedule = "done"} {
  func.func @k(%g: memref<64xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>, ascend.grid = 8 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    scf.for %i = %c0 to %c4 step %c1 {
      hivm.hir.load ins(%g : memref<64xf32, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>) {ascend.latency = 120 : i64, ascend.ii = 40 : i64}
    } {ascend.num_stages = 2 : i64, tile.num_stages = 2 : i64}
    func.return
  }
}
