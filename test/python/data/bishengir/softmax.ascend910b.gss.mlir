module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @softmax(%arg0: memref<256x256xf32, #hivm.address_space<gm>>, %arg1: memref<256x256xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c0_i64 = arith.constant 0 : i64
    %c16384_i64 = arith.constant 16384 : i64
    %c16448_i64 = arith.constant 16448 : i64
    %c16512_i64 = arith.constant 16512 : i64
    %c32896_i64 = arith.constant 32896 : i64
    %c49280_i64 = arith.constant 49280 : i64
    %0 = hivm.hir.get_block_idx -> i64
    %1 = arith.index_cast %0 : i64 to index
    %2 = arith.muli %1, %c64 : index
    %3 = hivm.hir.pointer_cast(%c0_i64) : memref<16x256xf32, #hivm.address_space<ub>>
    %4 = hivm.hir.pointer_cast(%c16384_i64) : memref<16x1xf32, #hivm.address_space<ub>>
    %5 = hivm.hir.pointer_cast(%c16448_i64) : memref<16x1xf32, #hivm.address_space<ub>>
    %6 = hivm.hir.pointer_cast(%c16512_i64) : memref<16x256xf32, #hivm.address_space<ub>>
    %7 = hivm.hir.pointer_cast(%c32896_i64) : memref<16x256xf32, #hivm.address_space<ub>>
    %8 = hivm.hir.pointer_cast(%c49280_i64) : memref<16x256xf32, #hivm.address_space<ub>>
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
    scf.for %arg2 = %c0 to %c4 step %c1 {
      %9 = arith.muli %arg2, %c16 : index
      %10 = arith.addi %2, %9 : index
      %subview = memref.subview %arg0[%10, 0] [16, 256] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      %subview_0 = memref.subview %arg1[%10, 0] [16, 256] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.load ins(%subview : memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%3 : memref<16x256xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.vreduce <max> ins(%3 : memref<16x256xf32, #hivm.address_space<ub>>) outs(%4 : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vbrc ins(%4 : memref<16x1xf32, #hivm.address_space<ub>>) outs(%6 : memref<16x256xf32, #hivm.address_space<ub>>) broadcast_dims = [1]
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vsub ins(%3, %6 : memref<16x256xf32, #hivm.address_space<ub>>, memref<16x256xf32, #hivm.address_space<ub>>) outs(%7 : memref<16x256xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vexp ins(%7 : memref<16x256xf32, #hivm.address_space<ub>>) outs(%7 : memref<16x256xf32, #hivm.address_space<ub>>)
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vreduce <sum> ins(%7 : memref<16x256xf32, #hivm.address_space<ub>>) outs(%5 : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vbrc ins(%5 : memref<16x1xf32, #hivm.address_space<ub>>) outs(%6 : memref<16x256xf32, #hivm.address_space<ub>>) broadcast_dims = [1]
      hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vdiv ins(%7, %6 : memref<16x256xf32, #hivm.address_space<ub>>, memref<16x256xf32, #hivm.address_space<ub>>) outs(%8 : memref<16x256xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
      hivm.hir.store ins(%8 : memref<16x256xf32, #hivm.address_space<ub>>) outs(%subview_0 : memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>)
      hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    }
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    return
  }
}

