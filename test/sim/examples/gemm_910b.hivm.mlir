// Hand-synced hivm form of examples/gemm_910b.mlir (the oracle's calibration) for
// Ascend 910B: C = A @ B, 2x2 grid of 128x128 C tiles, K loop of 4 steps of 128, one L1
// buffer per operand (single-buffered: the nd2nz of step k+1 waits for the mmadL1 of
// step k through the loop-carried MTE1 -> MTE2 flag, primed before the loop and drained
// after it). The fixpipe waits for the last mmadL1 with an M -> FIX flag.
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @gemm_910b(%a: memref<256x512xbf16, #hivm.address_space<gm>>, %b: memref<512x256xbf16, #hivm.address_space<gm>>, %c: memref<256x256xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>, ascend.grid = 4 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %cK = arith.constant 128 : index
    %block_i64 = hivm.hir.get_block_idx -> i64
    %block = arith.index_cast %block_i64 : i64 to index
    %bm = arith.divui %block, %c2 : index
    %bn = arith.remui %block, %c2 : index
    %m0 = arith.muli %bm, %c128 : index
    %n0 = arith.muli %bn, %c128 : index
    %la = memref.alloc() : memref<128x128xbf16, #hivm.address_space<cbuf>>
    %lb = memref.alloc() : memref<128x128xbf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<128x128xf32, #hivm.address_space<cc>>
    hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
    scf.for %k = %c0 to %c4 step %c1 {
      %k0 = arith.muli %k, %cK : index
      %as = memref.subview %a[%m0, %k0] [128, 128] [1, 1] : memref<256x512xbf16, #hivm.address_space<gm>> to memref<128x128xbf16, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>
      %bs = memref.subview %b[%k0, %n0] [128, 128] [1, 1] : memref<512x256xbf16, #hivm.address_space<gm>> to memref<128x128xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      %first = arith.cmpi eq, %k, %c0 : index
      hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.nd2nz {dst_continuous} ins(%as : memref<128x128xbf16, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>) outs(%la : memref<128x128xbf16, #hivm.address_space<cbuf>>)
      hivm.hir.nd2nz {dst_continuous} ins(%bs : memref<128x128xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lb : memref<128x128xbf16, #hivm.address_space<cbuf>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
      hivm.hir.mmadL1 ins(%la, %lb, %first, %c128, %cK, %c128 : memref<128x128xbf16, #hivm.address_space<cbuf>>, memref<128x128xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<128x128xf32, #hivm.address_space<cc>>)
      hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
    }
    hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
    %cs = memref.subview %c[%m0, %n0] [128, 128] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<128x128xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<128x128xf32, #hivm.address_space<cc>>) outs(%cs : memref<128x128xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>)
    return
  }
}
