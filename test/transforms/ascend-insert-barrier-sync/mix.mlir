// RUN: ascend-opt %s --split-input-file -p ascend-insert-barrier-sync | filecheck %s

// MIX kernel: the cube core's fixpipe writes the accumulator into the vector core's ub.
// The hand-off drains the cube (barrier), sets cross-core flag 0 on the cube's FIX pipe,
// and the vector core waits for it on its V pipe before it touches memory.

// CHECK-LABEL: func.func @gemm_relu
// CHECK:       scf.for
// CHECK-NEXT:    %first = arith.cmpi
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:    hivm.hir.nd2nz
// CHECK-NEXT:    hivm.hir.nd2nz
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:    hivm.hir.mmadL1
// CHECK-NEXT:  }
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  hivm.hir.fixpipe
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
// CHECK-NEXT:  hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 0
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  hivm.hir.vrelu
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  hivm.hir.store
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  func.return
func.func @gemm_relu(%a: memref<128x64xbf16, #hivm.address_space<gm>>, %b: memref<64x128xbf16, #hivm.address_space<gm>>, %c: memref<128x128xf32, #hivm.address_space<gm>>) attributes {hivm.func_core_type = #hivm.func_core_type<MIX>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %la = memref.alloc() : memref<128x64xbf16, #hivm.address_space<cbuf>>
  %lb = memref.alloc() : memref<64x128xbf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<128x128xf32, #hivm.address_space<cc>>
  %uc = memref.alloc() : memref<128x128xf32, #hivm.address_space<ub>>
  scf.for %k = %c0 to %c4 step %c1 {
    %first = arith.cmpi eq, %k, %c0 : index
    hivm.hir.nd2nz {dst_continuous} ins(%a : memref<128x64xbf16, #hivm.address_space<gm>>) outs(%la : memref<128x64xbf16, #hivm.address_space<cbuf>>)
    hivm.hir.nd2nz {dst_continuous} ins(%b : memref<64x128xbf16, #hivm.address_space<gm>>) outs(%lb : memref<64x128xbf16, #hivm.address_space<cbuf>>)
    hivm.hir.mmadL1 ins(%la, %lb, %first, %c128, %c64, %c128 : memref<128x64xbf16, #hivm.address_space<cbuf>>, memref<64x128xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<128x128xf32, #hivm.address_space<cc>>)
  }
  hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<128x128xf32, #hivm.address_space<cc>>) outs(%uc : memref<128x128xf32, #hivm.address_space<ub>>)
  hivm.hir.vrelu ins(%uc : memref<128x128xf32, #hivm.address_space<ub>>) outs(%uc : memref<128x128xf32, #hivm.address_space<ub>>)
  hivm.hir.store ins(%uc : memref<128x128xf32, #hivm.address_space<ub>>) outs(%c : memref<128x128xf32, #hivm.address_space<gm>>)
  return
}

// -----

// A loop whose body runs on both cores: every iteration starts on the cube, so the
// vector core hands the baton back (flag 1, from its MTE3 store to the cube's MTE2) at
// the end of the body; set and wait sit in the same block, so they balance. That
// hand-off drains both cores, so neither the next iteration nor the kernel's end needs
// another barrier.

// CHECK-LABEL: func.func @tiles
// CHECK:       scf.for
// CHECK-NEXT:    hivm.hir.nd2nz
// CHECK-NEXT:    hivm.hir.nd2nz
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:    hivm.hir.mmadL1
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:    hivm.hir.fixpipe
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
// CHECK-NEXT:    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 0
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:    hivm.hir.vrelu
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:    hivm.hir.store
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:    hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE3>, <PIPE_MTE2>] flag = 1
// CHECK-NEXT:    hivm.hir.sync_block_wait[<CUBE>, <PIPE_MTE3>, <PIPE_MTE2>] flag = 1
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  }
// CHECK-NEXT:  func.return
func.func @tiles(%a: memref<128x64xbf16, #hivm.address_space<gm>>, %b: memref<64x128xbf16, #hivm.address_space<gm>>, %c: memref<128x128xf32, #hivm.address_space<gm>>) attributes {hivm.func_core_type = #hivm.func_core_type<MIX>} {
  %true = arith.constant true
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %la = memref.alloc() : memref<128x64xbf16, #hivm.address_space<cbuf>>
  %lb = memref.alloc() : memref<64x128xbf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<128x128xf32, #hivm.address_space<cc>>
  %uc = memref.alloc() : memref<128x128xf32, #hivm.address_space<ub>>
  scf.for %t = %c0 to %c4 step %c1 {
    hivm.hir.nd2nz {dst_continuous} ins(%a : memref<128x64xbf16, #hivm.address_space<gm>>) outs(%la : memref<128x64xbf16, #hivm.address_space<cbuf>>)
    hivm.hir.nd2nz {dst_continuous} ins(%b : memref<64x128xbf16, #hivm.address_space<gm>>) outs(%lb : memref<64x128xbf16, #hivm.address_space<cbuf>>)
    hivm.hir.mmadL1 ins(%la, %lb, %true, %c128, %c64, %c128 : memref<128x64xbf16, #hivm.address_space<cbuf>>, memref<64x128xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<128x128xf32, #hivm.address_space<cc>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<128x128xf32, #hivm.address_space<cc>>) outs(%uc : memref<128x128xf32, #hivm.address_space<ub>>)
    hivm.hir.vrelu ins(%uc : memref<128x128xf32, #hivm.address_space<ub>>) outs(%uc : memref<128x128xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%uc : memref<128x128xf32, #hivm.address_space<ub>>) outs(%c : memref<128x128xf32, #hivm.address_space<gm>>)
  }
  return
}
