// Hand-synced hivm form of examples/gemm.mlir (the oracle's calibration): C = A @ B,
// bf16 inputs, fp32 accumulator, 2 blocks each owning a 256x224 tile of C, K loop of 4
// steps of 128. The L1 tiles are double-buffered by hand: the loop is unrolled by two,
// step 2j uses L1 set 0 (EVENT_ID0), step 2j+1 set 1 (EVENT_ID1).
//
// Per set s:  MTE2 -> MTE1 (tiles in L1; mmadL1 may read them)
//             MTE1 -> MTE2 (mmadL1 has read them; the next nd2nz may overwrite them),
//                          loop-carried: primed before the loop, drained after it.
// Consecutive mmadL1s accumulate into the same L0C tile in order on the M pipe (no flag);
// the fixpipe waits for the last one with an M -> FIX flag.
module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  func.func @gemm(%a: memref<256x512xbf16, #hivm.address_space<gm>>, %b: memref<512x448xbf16, #hivm.address_space<gm>>, %c: memref<256x448xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>, ascend.grid = 2 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %c224 = arith.constant 224 : index
    %c256 = arith.constant 256 : index
    %false = arith.constant false
    %block_i64 = hivm.hir.get_block_idx -> i64
    %block = arith.index_cast %block_i64 : i64 to index
    %n0 = arith.muli %block, %c224 : index
    %la0 = memref.alloc() : memref<256x128xbf16, #hivm.address_space<cbuf>>
    %lb0 = memref.alloc() : memref<128x224xbf16, #hivm.address_space<cbuf>>
    %la1 = memref.alloc() : memref<256x128xbf16, #hivm.address_space<cbuf>>
    %lb1 = memref.alloc() : memref<128x224xbf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<256x224xf32, #hivm.address_space<cc>>
    hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID1>]
    scf.for %j = %c0 to %c2 step %c1 {
      %kb = arith.muli %j, %c256 : index
      %first = arith.cmpi eq, %j, %c0 : index
      // K step 2j+0 in L1 set 0 (EVENT_ID0)
      %k0 = arith.addi %kb, %c0 : index
      %as0 = memref.subview %a[0, %k0] [256, 128] [1, 1] : memref<256x512xbf16, #hivm.address_space<gm>> to memref<256x128xbf16, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>
      %bs0 = memref.subview %b[%k0, %n0] [128, 224] [1, 1] : memref<512x448xbf16, #hivm.address_space<gm>> to memref<128x224xbf16, strided<[448, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.nd2nz {dst_continuous} ins(%as0 : memref<256x128xbf16, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>) outs(%la0 : memref<256x128xbf16, #hivm.address_space<cbuf>>)
      hivm.hir.nd2nz {dst_continuous} ins(%bs0 : memref<128x224xbf16, strided<[448, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lb0 : memref<128x224xbf16, #hivm.address_space<cbuf>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
      hivm.hir.mmadL1 ins(%la0, %lb0, %first, %c256, %c128, %c224 : memref<256x128xbf16, #hivm.address_space<cbuf>>, memref<128x224xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<256x224xf32, #hivm.address_space<cc>>)
      hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
      // K step 2j+1 in L1 set 1 (EVENT_ID1)
      %k1 = arith.addi %kb, %c128 : index
      %as1 = memref.subview %a[0, %k1] [256, 128] [1, 1] : memref<256x512xbf16, #hivm.address_space<gm>> to memref<256x128xbf16, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>
      %bs1 = memref.subview %b[%k1, %n0] [128, 224] [1, 1] : memref<512x448xbf16, #hivm.address_space<gm>> to memref<128x224xbf16, strided<[448, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID1>]
      hivm.hir.nd2nz {dst_continuous} ins(%as1 : memref<256x128xbf16, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>) outs(%la1 : memref<256x128xbf16, #hivm.address_space<cbuf>>)
      hivm.hir.nd2nz {dst_continuous} ins(%bs1 : memref<128x224xbf16, strided<[448, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lb1 : memref<128x224xbf16, #hivm.address_space<cbuf>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID1>]
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID1>]
      hivm.hir.mmadL1 ins(%la1, %lb1, %false, %c256, %c128, %c224 : memref<256x128xbf16, #hivm.address_space<cbuf>>, memref<128x224xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<256x224xf32, #hivm.address_space<cc>>)
      hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID1>]
    }
    hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID1>]
    %cs = memref.subview %c[0, %n0] [256, 224] [1, 1] : memref<256x448xf32, #hivm.address_space<gm>> to memref<256x224xf32, strided<[448, 1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<256x224xf32, #hivm.address_space<cc>>) outs(%cs : memref<256x224xf32, strided<[448, 1], offset: ?>, #hivm.address_space<gm>>)
    return
  }
}
