// intra-core=false places only the cross-core hand-offs of a MIX kernel (for a consumer
// that syncs within each core itself, as bishengir-compile does): no barrier between
// the dependent nd2nz and mmadL1 of the cube core, the hand-off from fixpipe to vrelu
// kept with its draining barriers.
// RUN: ascend-opt %s -p 'ascend-insert-barrier-sync{intra-core=false}' | filecheck %s
// RUN: ascend-opt %s -p ascend-insert-barrier-sync | filecheck %s --check-prefix=ALL

// CHECK:      hivm.hir.nd2nz
// CHECK-NEXT: hivm.hir.mmadL1
// CHECK-NEXT: hivm.hir.fixpipe
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT: hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
// CHECK-NEXT: hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 0
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT: hivm.hir.vrelu
// CHECK-NEXT: func.return
// ALL:        hivm.hir.nd2nz
// ALL-NEXT:   hivm.hir.pipe_barrier[<PIPE_ALL>]
// ALL-NEXT:   hivm.hir.mmadL1
func.func @mix(%g: memref<16x16xf16, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<MIX>} {
  %c16 = arith.constant 16 : index
  %true = arith.constant true
  %l1 = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
  %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
  hivm.hir.nd2nz {dst_continuous} ins(%g : memref<16x16xf16, #hivm.address_space<gm>>) outs(%l1 : memref<16x16xf16, #hivm.address_space<cbuf>>)
  hivm.hir.mmadL1 ins(%l1, %l1, %true, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>)
  hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
  hivm.hir.vrelu ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
  func.return
}
