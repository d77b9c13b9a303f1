// RUN: ascend-opt %s --split-input-file -p "ascend-insert-sync{chip=ascend910b straight-line-barriers=false}" | filecheck %s
// RUN: ascend-opt %s --split-input-file -p "ascend-insert-sync{chip=ascend950 straight-line-barriers=false}" | filecheck %s --check-prefix=A5

// The same-pipe rule (chips.needs_barrier): on the 910B two dependent vector ops need
// pipe_barrier[<PIPE_V>] (its V pipe does not order them); on the 950 none (its
// register-based V pipe does: docs/same-pipe-rule.md); independent ones need nothing; cross-pipe dependences get a
// flag; the store waits for the last vector op only (transitively covered: the flag
// after vmul also covers vabs, which a barrier ordered before vmul). The flags, not
// the barriers these functions would get for running one op at a time
// (straight-line-barriers, straight-line-serial.mlir), are what is tested here.

// CHECK-LABEL: func.func @chain
// A5-LABEL:    func.func @chain
// A5:          hivm.hir.vexp ins(%u
// A5-NEXT:     hivm.hir.vmul
// CHECK:       hivm.hir.load
// CHECK-NEXT:  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT:  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT:  hivm.hir.vabs
// CHECK-NEXT:  hivm.hir.vexp ins(%u
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_V>]
// CHECK-NEXT:  hivm.hir.vmul
// CHECK-NEXT:  hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
// CHECK-NEXT:  hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
// CHECK-NEXT:  hivm.hir.store
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  func.return
func.func @chain(%x: memref<64xf32, #hivm.address_space<gm>>, %z: memref<64xf32, #hivm.address_space<gm>>) {
  %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %v = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %w = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %t = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.vabs ins(%u : memref<64xf32, #hivm.address_space<ub>>) outs(%v : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.vexp ins(%u : memref<64xf32, #hivm.address_space<ub>>) outs(%t : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.vmul ins(%v, %t : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%w : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.store ins(%w : memref<64xf32, #hivm.address_space<ub>>) outs(%z : memref<64xf32, #hivm.address_space<gm>>)
  return
}

// -----

// Accumulating mmadL1s in a loop: M -> M between mmadL1 ops is the op's own business
// (no barrier, no flag for the accumulator); the operand loads and the L1 reuse across
// iterations get MTE2 -> MTE1 and MTE1 -> MTE2 flags (the latter primed and drained),
// the fixpipe waits for the last mmadL1 (M -> FIX). The drain's wait sinks to the final
// barrier: nothing after the loop needs it, and it would hold MTE2 until the last set.

// CHECK-LABEL: func.func @mmad_chain
// CHECK:       hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
// CHECK-NEXT:  scf.for
// CHECK-NEXT:    hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
// CHECK-NEXT:    hivm.hir.nd2nz
// CHECK-NEXT:    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
// CHECK-NEXT:    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
// CHECK-NEXT:    hivm.hir.mmadL1
// CHECK-NEXT:    hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
// CHECK-NEXT:  }
// CHECK-NEXT:  hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
// CHECK-NEXT:  hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
// CHECK-NEXT:  hivm.hir.fixpipe
// CHECK-NEXT:  hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NOT:   pipe_barrier[<PIPE_M>]
func.func @mmad_chain(%a: memref<64x64xf16, #hivm.address_space<gm>>, %c: memref<64x64xf32, #hivm.address_space<gm>>) attributes {hivm.func_core_type = #hivm.func_core_type<AIC>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %false = arith.constant false
  %l = memref.alloc() : memref<64x64xf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<64x64xf32, #hivm.address_space<cc>>
  scf.for %k = %c0 to %c4 step %c1 {
    hivm.hir.nd2nz {dst_continuous} ins(%a : memref<64x64xf16, #hivm.address_space<gm>>) outs(%l : memref<64x64xf16, #hivm.address_space<cbuf>>)
    hivm.hir.mmadL1 ins(%l, %l, %false, %c64, %c64, %c64 : memref<64x64xf16, #hivm.address_space<cbuf>>, memref<64x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<64x64xf32, #hivm.address_space<cc>>)
  }
  hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<64x64xf32, #hivm.address_space<cc>>) outs(%c : memref<64x64xf32, #hivm.address_space<gm>>)
  return
}
