// Hand-synced hivm form of examples/gemm_910b.mlir (the oracle's calibration) for
// Ascend 910B: C = A @ B, 2x2 grid of 128x128 C tiles, K loop of 4 steps of 128. The L1
// tiles are double-buffered by hand: the loop is unrolled by two, step 2j uses L1 set 0
// (EVENT_ID0), step 2j+1 set 1 (EVENT_ID1).
//
// Per set s:  MTE2 -> MTE1 (tiles in L1; mmadL1 may read them)
//             MTE1 -> MTE2 (mmadL1 has read them; the next nd2nz may overwrite them),
//                          loop-carried: primed before the loop, drained after it.
// Consecutive mmadL1s accumulate into the same L0C tile in order on the M pipe (no flag);
// the fixpipe waits for the last one with an M -> FIX flag.
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @gemm_910b(%a: memref<256x512xbf16, #hivm.address_space<gm>>, %b: memref<512x256xbf16, #hivm.address_space<gm>>, %c: memref<256x256xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>, ascend.grid = 4 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %false = arith.constant false
    %block_i64 = hivm.hir.get_block_idx -> i64
    %block = arith.index_cast %block_i64 : i64 to index
    %bm = arith.divui %block, %c2 : index
    %bn = arith.remui %block, %c2 : index
    %m0 = arith.muli %bm, %c128 : index
    %n0 = arith.muli %bn, %c128 : index
    %la0 = memref.alloc() : memref<128x128xbf16, #hivm.address_space<cbuf>>
    %lb0 = memref.alloc() : memref<128x128xbf16, #hivm.address_space<cbuf>>
    %la1 = memref.alloc() : memref<128x128xbf16, #hivm.address_space<cbuf>>
    %lb1 = memref.alloc() : memref<128x128xbf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<128x128xf32, #hivm.address_space<cc>>
    hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID1>]
    scf.for %j = %c0 to %c2 step %c1 {
      %kb = arith.muli %j, %c256 : index
      %first = arith.cmpi eq, %j, %c0 : index
      // K step 2j+0 in L1 set 0 (EVENT_ID0)
      %k0 = arith.addi %kb, %c0 : index
      %as0 = memref.subview %a[%m0, %k0] [128, 128] [1, 1] : memref<256x512xbf16, #hivm.address_space<gm>> to memref<128x128xbf16, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>
      %bs0 = memref.subview %b[%k0, %n0] [128, 128] [1, 1] : memref<512x256xbf16, #hivm.address_space<gm>> to memref<128x128xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.nd2nz {dst_continuous} ins(%as0 : memref<128x128xbf16, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>) outs(%la0 : memref<128x128xbf16, #hivm.address_space<cbuf>>)
      hivm.hir.nd2nz {dst_continuous} ins(%bs0 : memref<128x128xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lb0 : memref<128x128xbf16, #hivm.address_space<cbuf>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
      hivm.hir.mmadL1 ins(%la0, %lb0, %first, %c128, %c128, %c128 : memref<128x128xbf16, #hivm.address_space<cbuf>>, memref<128x128xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<128x128xf32, #hivm.address_space<cc>>)
      hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
      // K step 2j+1 in L1 set 1 (EVENT_ID1)
      %k1 = arith.addi %kb, %c128 : index
      %as1 = memref.subview %a[%m0, %k1] [128, 128] [1, 1] : memref<256x512xbf16, #hivm.address_space<gm>> to memref<128x128xbf16, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>
      %bs1 = memref.subview %b[%k1, %n0] [128, 128] [1, 1] : memref<512x256xbf16, #hivm.address_space<gm>> to memref<128x128xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID1>]
      hivm.hir.nd2nz {dst_continuous} ins(%as1 : memref<128x128xbf16, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>) outs(%la1 : memref<128x128xbf16, #hivm.address_space<cbuf>>)
      hivm.hir.nd2nz {dst_continuous} ins(%bs1 : memref<128x128xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lb1 : memref<128x128xbf16, #hivm.address_space<cbuf>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID1>]
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID1>]
      hivm.hir.mmadL1 ins(%la1, %lb1, %false, %c128, %c128, %c128 : memref<128x128xbf16, #hivm.address_space<cbuf>>, memref<128x128xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<128x128xf32, #hivm.address_space<cc>>)
      hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID1>]
    }
    hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID1>]
    %cs = memref.subview %c[%m0, %n0] [128, 128] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<128x128xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<128x128xf32, #hivm.address_space<cc>>) outs(%cs : memref<128x128xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>)
    return
  }
}
