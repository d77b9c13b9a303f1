// The pass only partitions: a MIX kernel whose cube and vector ops share a buffer
// without cross-core flags is a located error naming the pass that places them.
// RUN: ascend-opt %s -p split-mix-kernel --verify-diagnostics

func.func @unsynced() attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<MIX>} {
  %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
  %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
  hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
  // expected-error @+1 {{depends on 'hivm.hir.fixpipe' of the other core but the MIX kernel has no cross-core flags: run sync insertion first (-p ascend-insert-barrier-sync, or -p ascend-compile, which also splits)}}
  hivm.hir.vrelu ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
  func.return
}
