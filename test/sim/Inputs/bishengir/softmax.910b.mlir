// bishengir-compile (Ascend910B1) --mlir-print-ir-after-all:
// the last hivm dump (after InsertFreeLockVarBeforeReturn (hivm-insert-free-lock-var-before-return)) of examples/softmax.mlir lowered by
// `ascend-opt -p convert-tile-to-hivm{chip=ascend910b} -t npuir` (no sync of ours).
// Kept verbatim as bishengir printed it (dlti spec, custom memref.cast, affine.apply).
#map = affine_map<()[s0, s1] -> (s0 * 64 + s1 * 16)>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"NPU" : #hacc.target_device_spec<#dlti.dl_entry<"AI_CORE_COUNT", 24 : i32>, #dlti.dl_entry<"CUBE_CORE_COUNT", 24 : i32>, #dlti.dl_entry<"VECTOR_CORE_COUNT", 48 : i32>, #dlti.dl_entry<"UB_SIZE", 1572864 : i32>, #dlti.dl_entry<"L1_SIZE", 4194304 : i32>, #dlti.dl_entry<"L0A_SIZE", 524288 : i32>, #dlti.dl_entry<"L0B_SIZE", 524288 : i32>, #dlti.dl_entry<"L0C_SIZE", 1048576 : i32>, #dlti.dl_entry<"UB_ALIGN_SIZE", 256 : i32>, #dlti.dl_entry<"L1_ALIGN_SIZE", 256 : i32>, #dlti.dl_entry<"L0C_ALIGN_SIZE", 4096 : i32>>>, hacc.hivmc_compatible_print = true, hacc.hivmc_version = #hacc.hivmc_version<"0.0.0">, hivm.module_core_type = #hivm.module_core_type<AIV>} {
  func.func @softmax(%arg0: memref<256x256xf32, #hivm.address_space<gm>>, %arg1: memref<256x256xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.storage_aligned} {
    %c82560_i64 = arith.constant 82560 : i64
    %c74368_i64 = arith.constant 74368 : i64
    %c73856_i64 = arith.constant 73856 : i64
    %c65664_i64 = arith.constant 65664 : i64
    %c16384_i64 = arith.constant 16384 : i64
    %c49216_i64 = arith.constant 49216 : i64
    %c0_i64 = arith.constant 0 : i64
    %c65600_i64 = arith.constant 65600 : i64
    %c32768_i64 = arith.constant 32768 : i64
    %c32832_i64 = arith.constant 32832 : i64
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    hivm.hir.set_mask_norm
    %0 = hivm.hir.get_block_idx -> i64
    %1 = arith.index_cast %0 : i64 to index
    %2 = hivm.hir.pointer_cast(%c32832_i64) : memref<16x256xf32, #hivm.address_space<ub>>
    %3 = hivm.hir.pointer_cast(%c32768_i64) : memref<16x1xf32, #hivm.address_space<ub>>
    %4 = hivm.hir.pointer_cast(%c65600_i64) : memref<16x1xf32, #hivm.address_space<ub>>
    %5 = hivm.hir.pointer_cast(%c0_i64) : memref<16x256xf32, #hivm.address_space<ub>>
    %6 = hivm.hir.pointer_cast(%c49216_i64) : memref<16x256xf32, #hivm.address_space<ub>>
    %7 = hivm.hir.pointer_cast(%c16384_i64) : memref<16x256xf32, #hivm.address_space<ub>>
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
    scf.for %arg2 = %c0 to %c4 step %c1 {
      %8 = affine.apply #map()[%1, %arg2]
      %subview = memref.subview %arg0[%8, 0] [16, 256] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      %subview_0 = memref.subview %arg1[%8, 0] [16, 256] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      %collapse_shape = memref.collapse_shape %subview [[0, 1]] : memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>> into memref<4096xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %collapse_shape_1 = memref.collapse_shape %2 [[0, 1]] : memref<16x256xf32, #hivm.address_space<ub>> into memref<4096xf32, #hivm.address_space<ub>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.load ins(%collapse_shape : memref<4096xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%collapse_shape_1 : memref<4096xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
      %9 = hivm.hir.pointer_cast(%c65664_i64) : memref<2048xf32, #hivm.address_space<ub>>
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.vreduce <max> ins(%2 : memref<16x256xf32, #hivm.address_space<ub>>) outs(%3 : memref<16x1xf32, #hivm.address_space<ub>>) temp_buffer(%9 : memref<2048xf32, #hivm.address_space<ub>>) reduce_dims = [1]
      %10 = hivm.hir.pointer_cast(%c73856_i64) : memref<128xf32, #hivm.address_space<ub>>
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vbrc ins(%3 : memref<16x1xf32, #hivm.address_space<ub>>) outs(%5 : memref<16x256xf32, #hivm.address_space<ub>>) temp_buffer(%10 : memref<128xf32, #hivm.address_space<ub>>) broadcast_dims = [1]
      %collapse_shape_2 = memref.collapse_shape %5 [[0, 1]] : memref<16x256xf32, #hivm.address_space<ub>> into memref<4096xf32, #hivm.address_space<ub>>
      %collapse_shape_3 = memref.collapse_shape %6 [[0, 1]] : memref<16x256xf32, #hivm.address_space<ub>> into memref<4096xf32, #hivm.address_space<ub>>
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vsub ins(%collapse_shape_1, %collapse_shape_2 : memref<4096xf32, #hivm.address_space<ub>>, memref<4096xf32, #hivm.address_space<ub>>) outs(%collapse_shape_3 : memref<4096xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vexp ins(%collapse_shape_3 : memref<4096xf32, #hivm.address_space<ub>>) outs(%collapse_shape_3 : memref<4096xf32, #hivm.address_space<ub>>)
      %11 = hivm.hir.pointer_cast(%c74368_i64) : memref<2048xf32, #hivm.address_space<ub>>
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vreduce <sum> ins(%6 : memref<16x256xf32, #hivm.address_space<ub>>) outs(%4 : memref<16x1xf32, #hivm.address_space<ub>>) temp_buffer(%11 : memref<2048xf32, #hivm.address_space<ub>>) reduce_dims = [1]
      %12 = hivm.hir.pointer_cast(%c82560_i64) : memref<128xf32, #hivm.address_space<ub>>
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vbrc ins(%4 : memref<16x1xf32, #hivm.address_space<ub>>) outs(%5 : memref<16x256xf32, #hivm.address_space<ub>>) temp_buffer(%12 : memref<128xf32, #hivm.address_space<ub>>) broadcast_dims = [1]
      %collapse_shape_4 = memref.collapse_shape %7 [[0, 1]] : memref<16x256xf32, #hivm.address_space<ub>> into memref<4096xf32, #hivm.address_space<ub>>
      hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vdiv ins(%collapse_shape_3, %collapse_shape_2 : memref<4096xf32, #hivm.address_space<ub>>, memref<4096xf32, #hivm.address_space<ub>>) outs(%collapse_shape_4 : memref<4096xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
      %collapse_shape_5 = memref.collapse_shape %subview_0 [[0, 1]] : memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>> into memref<4096xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
      hivm.hir.store ins(%collapse_shape_4 : memref<4096xf32, #hivm.address_space<ub>>) outs(%collapse_shape_5 : memref<4096xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
      hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    }
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    return
  }
}
