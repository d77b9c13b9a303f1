#map = affine_map<()[s0] -> (s0 - 1)>
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @gemm_910b(%arg0: memref<256x512xbf16, #hivm.address_space<gm>>, %arg1: memref<512x256xbf16, #hivm.address_space<gm>>, %arg2: memref<256x256xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>} {
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c3_i64 = arith.constant 3 : i64
    %c2_i64 = arith.constant 2 : i64
    %c0_i64_0 = arith.constant 0 : i64
    %c1_i64_1 = arith.constant 1 : i64
    %c0_i64_2 = arith.constant 0 : i64
    %c1_i64_3 = arith.constant 1 : i64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %c0_i64_4 = arith.constant 0 : i64
    %c32768_i64 = arith.constant 32768 : i64
    %true = arith.constant true
    %false = arith.constant false
    %0 = hivm.hir.get_block_idx -> i64
    %1 = arith.index_cast %0 : i64 to index
    %2 = arith.divui %1, %c2 : index
    %3 = arith.remui %1, %c2 : index
    %4 = arith.muli %2, %c128 : index
    %5 = arith.muli %3, %c128 : index
    %6 = hivm.hir.pointer_cast(%c0_i64_4) : memref<128x128xbf16, #hivm.address_space<cbuf>>
    %7 = hivm.hir.pointer_cast(%c32768_i64) : memref<128x128xbf16, #hivm.address_space<cbuf>>
    %8 = hivm.hir.pointer_cast(%c0_i64_4) : memref<128x128xf32, #hivm.address_space<cc>>
    %9 = arith.muli %c0, %c128 : index
    %subview = memref.subview %arg0[%4, %9] [128, 128] [1, 1] : memref<256x512xbf16, #hivm.address_space<gm>> to memref<128x128xbf16, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>
    %subview_5 = memref.subview %arg1[%9, %5] [128, 128] [1, 1] : memref<512x256xbf16, #hivm.address_space<gm>> to memref<128x128xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.nd2nz {dst_continuous} ins(%subview : memref<128x128xbf16, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>) outs(%6 : memref<128x128xbf16, #hivm.address_space<cbuf>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
    hivm.hir.nd2nz {dst_continuous} ins(%subview_5 : memref<128x128xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%7 : memref<128x128xbf16, #hivm.address_space<cbuf>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID1>]
    %c-1_i64 = arith.constant -1 : i64
    hivm.hir.mmadL1 ins(%6, %7, %true, %c128, %c128, %c128 : memref<128x128xbf16, #hivm.address_space<cbuf>>, memref<128x128xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%8 : memref<128x128xf32, #hivm.address_space<cc>>) sync_related_args(%c0_i64_0, %c1_i64_1, %c1_i64, %c0_i64, %c-1_i64, %c-1_i64, %c-1_i64 : i64, i64, i64, i64, i64, i64, i64)
    hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID1>]
    hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID2>]
    hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID3>]
    scf.for %arg3 = %c1 to %c4 step %c1 {
      %10 = affine.apply #map()[%arg3]
      %11 = arith.index_cast %10 : index to i64
      %12 = arith.muli %arg3, %c128 : index
      %subview_7 = memref.subview %arg0[%4, %12] [128, 128] [1, 1] : memref<256x512xbf16, #hivm.address_space<gm>> to memref<128x128xbf16, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>
      %subview_8 = memref.subview %arg1[%12, %5] [128, 128] [1, 1] : memref<512x256xbf16, #hivm.address_space<gm>> to memref<128x128xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID2>]
      hivm.hir.nd2nz {dst_continuous} ins(%subview_7 : memref<128x128xbf16, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>) outs(%6 : memref<128x128xbf16, #hivm.address_space<cbuf>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID3>]
      hivm.hir.nd2nz {dst_continuous} ins(%subview_8 : memref<128x128xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%7 : memref<128x128xbf16, #hivm.address_space<cbuf>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID1>]
      %c-1_i64_9 = arith.constant -1 : i64
      hivm.hir.mmadL1 ins(%6, %7, %false, %c128, %c128, %c128 : memref<128x128xbf16, #hivm.address_space<cbuf>>, memref<128x128xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%8 : memref<128x128xf32, #hivm.address_space<cc>>) sync_related_args(%c0_i64_2, %c1_i64_3, %c2_i64, %c3_i64, %11, %c-1_i64_9, %c-1_i64_9 : i64, i64, i64, i64, i64, i64, i64)
    }
    hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID2>]
    hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID3>]
    hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    %subview_6 = memref.subview %arg2[%4, %5] [128, 128] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<128x128xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%8 : memref<128x128xf32, #hivm.address_space<cc>>) outs(%subview_6 : memref<128x128xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    return
  }
}

