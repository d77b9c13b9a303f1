// REQUIRES: mlir-opt
// Our IR in generic form survives a trip through upstream mlir-opt 22 that knows none of
// our dialects (--allow-unregistered-dialect): properties `<{...}>`, enum attributes and
// hacc/annotation/tile/hivm ops come back to ascend-opt unchanged.
// RUN: ascend-opt %s --print-op-generic | %mlir_opt --allow-unregistered-dialect --mlir-print-op-generic | ascend-opt | filecheck %s
//
// Memrefs in a hivm address space cannot take that route: upstream memref types only
// accept memory spaces from registered dialects, and an unregistered `#hivm...` is an
// opaque builtin attribute. With dialects/hivm.irdl.mlir loaded they parse (see
// hivm-irdl.mlir); without it mlir-opt refuses them:
// RUN: ascend-opt %S/Inputs/ub-buffer.mlir --print-op-generic | not %mlir_opt --allow-unregistered-dialect 2>&1 | filecheck %s --check-prefix=MEMSPACE
// MEMSPACE: error: unsupported memory space Attribute

// CHECK: builtin.module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">}
module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  // CHECK-NEXT: func.func @sync(%{{.*}}: i64) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<MIX>} {
  func.func @sync(%ev: i64) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<MIX>} {
    // CHECK-NEXT: %{{.*}} = tile.block_idx : index
    %b = tile.block_idx : index
    // CHECK-NEXT: %{{.*}} = hivm.hir.get_block_idx -> i64
    %i = hivm.hir.get_block_idx -> i64
    // CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID3>]
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID3>]
    // CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, %{{.*}}]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, %ev]
    // CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    // CHECK-NEXT: hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 5
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 5
    // CHECK-NEXT: hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 5
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 5
    // CHECK-NEXT: %{{.*}} = memref.alloc() : memref<16xf16>
    %m = memref.alloc() : memref<16xf16>
    // CHECK-NEXT: annotation.mark %{{.*}} {hivm.multi_buffer = 2 : i32} : memref<16xf16>
    annotation.mark %m {hivm.multi_buffer = 2 : i32} : memref<16xf16>
    // CHECK-NEXT: func.return
    return
  }
}
