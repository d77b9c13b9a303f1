module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @rmsnorm(%arg0: memref<256x256xf32, #hivm.address_space<gm>>, %arg1: memref<1x256xf32, #hivm.address_space<gm>>, %arg2: memref<256x256xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %cst = arith.constant 9.99999997E-7 : f32
    %cst_0 = arith.constant 3.906250e-03 : f32
    %c0_i64 = arith.constant 0 : i64
    %c1024_i64 = arith.constant 1024 : i64
    %c17408_i64 = arith.constant 17408 : i64
    %c33792_i64 = arith.constant 33792 : i64
    %c50176_i64 = arith.constant 50176 : i64
    %c66560_i64 = arith.constant 66560 : i64
    %0 = hivm.hir.get_block_idx -> i64
    %1 = arith.index_cast %0 : i64 to index
    %2 = arith.muli %1, %c64 : index
    %3 = hivm.hir.pointer_cast(%c0_i64) : memref<1x256xf32, #hivm.address_space<ub>>
    %4 = hivm.hir.pointer_cast(%c1024_i64) : memref<16x256xf32, #hivm.address_space<ub>>
    %5 = hivm.hir.pointer_cast(%c17408_i64) : memref<16x256xf32, #hivm.address_space<ub>>
    %6 = hivm.hir.pointer_cast(%c33792_i64) : memref<16x256xf32, #hivm.address_space<ub>>
    %7 = hivm.hir.pointer_cast(%c0_i64) : memref<16x1xf32, #hivm.address_space<ub>>
    %8 = hivm.hir.pointer_cast(%c50176_i64) : memref<16x256xf32, #hivm.address_space<ub>>
    %9 = hivm.hir.pointer_cast(%c66560_i64) : memref<16x256xf32, #hivm.address_space<ub>>
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.load ins(%arg1 : memref<1x256xf32, #hivm.address_space<gm>>) outs(%3 : memref<1x256xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.vbrc ins(%3 : memref<1x256xf32, #hivm.address_space<ub>>) outs(%4 : memref<16x256xf32, #hivm.address_space<ub>>) broadcast_dims = [0]
    scf.for %arg3 = %c0 to %c4 step %c1 {
      %10 = arith.muli %arg3, %c16 : index
      %11 = arith.addi %2, %10 : index
      %subview = memref.subview %arg0[%11, 0] [16, 256] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      %subview_1 = memref.subview %arg2[%11, 0] [16, 256] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.load ins(%subview : memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%5 : memref<16x256xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID1>]
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID1>]
      hivm.hir.vmul ins(%5, %5 : memref<16x256xf32, #hivm.address_space<ub>>, memref<16x256xf32, #hivm.address_space<ub>>) outs(%6 : memref<16x256xf32, #hivm.address_space<ub>>)
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vreduce <sum> ins(%6 : memref<16x256xf32, #hivm.address_space<ub>>) outs(%7 : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vmul ins(%7, %cst_0 : memref<16x1xf32, #hivm.address_space<ub>>, f32) outs(%7 : memref<16x1xf32, #hivm.address_space<ub>>)
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vadd ins(%7, %cst : memref<16x1xf32, #hivm.address_space<ub>>, f32) outs(%7 : memref<16x1xf32, #hivm.address_space<ub>>)
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vrsqrt ins(%7 : memref<16x1xf32, #hivm.address_space<ub>>) outs(%7 : memref<16x1xf32, #hivm.address_space<ub>>)
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vbrc ins(%7 : memref<16x1xf32, #hivm.address_space<ub>>) outs(%8 : memref<16x256xf32, #hivm.address_space<ub>>) broadcast_dims = [1]
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.vmul ins(%5, %8 : memref<16x256xf32, #hivm.address_space<ub>>, memref<16x256xf32, #hivm.address_space<ub>>) outs(%9 : memref<16x256xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vmul ins(%9, %4 : memref<16x256xf32, #hivm.address_space<ub>>, memref<16x256xf32, #hivm.address_space<ub>>) outs(%9 : memref<16x256xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
      hivm.hir.store ins(%9 : memref<16x256xf32, #hivm.address_space<ub>>) outs(%subview_1 : memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>)
      hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    }
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    return
  }
}

