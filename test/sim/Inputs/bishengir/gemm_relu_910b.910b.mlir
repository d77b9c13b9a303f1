// bishengir-compile (Ascend910B1) --mlir-print-ir-after-all --disable-hivm-tensor-compile=true:
// the last hivm dump (after InsertFreeLockVarBeforeReturn (hivm-insert-free-lock-var-before-return)) of test/sim/Inputs/gemm_relu_910b.mlir lowered by
// `ascend-opt -p convert-tile-to-hivm{chip=ascend910b} -t npuir` (our cross-core hand-offs
// only; bishengir adds the sync within each core). Kept verbatim as bishengir printed it.
#map = affine_map<()[s0] -> (s0 * 128)>
#map1 = affine_map<()[s0] -> (s0 - 1)>
#map2 = affine_map<()[s0] -> (s0 * 64)>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"NPU" : #hacc.target_device_spec<#dlti.dl_entry<"AI_CORE_COUNT", 24 : i32>, #dlti.dl_entry<"CUBE_CORE_COUNT", 24 : i32>, #dlti.dl_entry<"VECTOR_CORE_COUNT", 48 : i32>, #dlti.dl_entry<"UB_SIZE", 1572864 : i32>, #dlti.dl_entry<"L1_SIZE", 4194304 : i32>, #dlti.dl_entry<"L0A_SIZE", 524288 : i32>, #dlti.dl_entry<"L0B_SIZE", 524288 : i32>, #dlti.dl_entry<"L0C_SIZE", 1048576 : i32>, #dlti.dl_entry<"UB_ALIGN_SIZE", 256 : i32>, #dlti.dl_entry<"L1_ALIGN_SIZE", 256 : i32>, #dlti.dl_entry<"L0C_ALIGN_SIZE", 4096 : i32>>>, hacc.hivmc_compatible_print = true, hacc.hivmc_version = #hacc.hivmc_version<"0.0.0">, hivm.module_core_type = #hivm.module_core_type<MIX>} {
  func.func @gemm_relu_mix_aic(%arg0: i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}, %arg1: memref<256x256xbf16, #hivm.address_space<gm>>, %arg2: memref<256x256xbf16, #hivm.address_space<gm>>, %arg3: memref<256x256xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>, hivm.part_of_mix, hivm.storage_aligned, mix_mode = "mix"} {
    %c-1_i64 = arith.constant -1 : i64
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c3_i64 = arith.constant 3 : i64
    %c2_i64 = arith.constant 2 : i64
    %c16384_i64 = arith.constant 16384 : i64
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %true = arith.constant true
    %false = arith.constant false
    hivm.hir.set_mask_norm
    hivm.hir.set_ffts_base_addr %arg0
    %0 = hivm.hir.get_block_idx -> i64
    %1 = arith.index_cast %0 : i64 to index
    %2 = arith.divui %1, %c2 : index
    %3 = arith.remui %1, %c2 : index
    %4 = affine.apply #map()[%2]
    %5 = affine.apply #map()[%3]
    %6 = hivm.hir.pointer_cast(%c0_i64) : memref<4x8x16x16xbf16, #hivm.address_space<cbuf>>
    %cast = memref.cast %6 : memref<4x8x16x16xbf16, #hivm.address_space<cbuf>> to memref<?x?x?x?xbf16, #hivm.address_space<cbuf>>
    %7 = hivm.hir.pointer_cast(%c16384_i64) : memref<8x4x16x16xbf16, #hivm.address_space<cbuf>>
    %cast_0 = memref.cast %7 : memref<8x4x16x16xbf16, #hivm.address_space<cbuf>> to memref<?x?x?x?xbf16, #hivm.address_space<cbuf>>
    %8 = hivm.hir.pointer_cast(%c0_i64) : memref<8x8x16x16xf32, #hivm.address_space<cc>>
    %cast_1 = memref.cast %8 : memref<8x8x16x16xf32, #hivm.address_space<cc>> to memref<?x?x?x?xf32, #hivm.address_space<cc>>
    %subview = memref.subview %arg1[%4, 0] [128, 64] [1, 1] : memref<256x256xbf16, #hivm.address_space<gm>> to memref<128x64xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
    %subview_2 = memref.subview %arg2[0, %5] [64, 128] [1, 1] : memref<256x256xbf16, #hivm.address_space<gm>> to memref<64x128xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.nd2nz {dst_continuous} ins(%subview : memref<128x64xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%cast : memref<?x?x?x?xbf16, #hivm.address_space<cbuf>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
    hivm.hir.nd2nz {dst_continuous} ins(%subview_2 : memref<64x128xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%cast_0 : memref<?x?x?x?xbf16, #hivm.address_space<cbuf>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID1>]
    hivm.hir.mmadL1 ins(%cast, %cast_0, %true, %c128, %c64, %c128 : memref<?x?x?x?xbf16, #hivm.address_space<cbuf>>, memref<?x?x?x?xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%cast_1 : memref<?x?x?x?xf32, #hivm.address_space<cc>>) sync_related_args(%c0_i64, %c1_i64, %c1_i64, %c0_i64, %c-1_i64, %c-1_i64, %c-1_i64 : i64, i64, i64, i64, i64, i64, i64)
    hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID1>]
    hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID2>]
    hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID3>]
    scf.for %arg4 = %c1 to %c4 step %c1 {
      %9 = affine.apply #map1()[%arg4]
      %10 = arith.index_cast %9 : index to i64
      %11 = affine.apply #map2()[%arg4]
      %subview_4 = memref.subview %arg1[%4, %11] [128, 64] [1, 1] : memref<256x256xbf16, #hivm.address_space<gm>> to memref<128x64xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      %subview_5 = memref.subview %arg2[%11, %5] [64, 128] [1, 1] : memref<256x256xbf16, #hivm.address_space<gm>> to memref<64x128xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID2>]
      hivm.hir.nd2nz {dst_continuous} ins(%subview_4 : memref<128x64xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%cast : memref<?x?x?x?xbf16, #hivm.address_space<cbuf>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID3>]
      hivm.hir.nd2nz {dst_continuous} ins(%subview_5 : memref<64x128xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%cast_0 : memref<?x?x?x?xbf16, #hivm.address_space<cbuf>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID1>]
      hivm.hir.mmadL1 ins(%cast, %cast_0, %false, %c128, %c64, %c128 : memref<?x?x?x?xbf16, #hivm.address_space<cbuf>>, memref<?x?x?x?xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%cast_1 : memref<?x?x?x?xf32, #hivm.address_space<cc>>) sync_related_args(%c0_i64, %c1_i64, %c2_i64, %c3_i64, %10, %c-1_i64, %c-1_i64 : i64, i64, i64, i64, i64, i64, i64)
    }
    hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID2>]
    hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID3>]
    hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    %subview_3 = memref.subview %arg3[%4, %5] [128, 128] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<128x128xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    hivm.hir.fixpipe {enable_nz2nd} ins(%cast_1 : memref<?x?x?x?xf32, #hivm.address_space<cc>>) outs(%subview_3 : memref<128x128xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>)
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_MTE3>] flag = 1 ffts_base_addr = %arg0
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_MTE2>] flag = 0 ffts_base_addr = %arg0
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    return
  }
  func.func @gemm_relu_mix_aiv(%arg0: i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}, %arg1: memref<256x256xbf16, #hivm.address_space<gm>>, %arg2: memref<256x256xbf16, #hivm.address_space<gm>>, %arg3: memref<256x256xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix, hivm.storage_aligned, mix_mode = "mix"} {
    %c0_i64 = arith.constant 0 : i64
    %c2 = arith.constant 2 : index
    hivm.hir.set_mask_norm
    hivm.hir.set_ffts_base_addr %arg0
    %0 = hivm.hir.get_block_idx -> i64
    %1 = arith.index_cast %0 : i64 to index
    %2 = arith.divui %1, %c2 : index
    %3 = arith.remui %1, %c2 : index
    %4 = affine.apply #map()[%2]
    %5 = affine.apply #map()[%3]
    %6 = hivm.hir.pointer_cast(%c0_i64) : memref<128x128xf32, #hivm.address_space<ub>>
    %7 = hivm.hir.pointer_cast(%c0_i64) : memref<128x128xf32, #hivm.address_space<ub>>
    %subview = memref.subview %arg3[%4, %5] [128, 128] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<128x128xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_MTE2>] flag = 0
    hivm.hir.load ins(%subview : memref<128x128xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%6 : memref<128x128xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    %collapse_shape = memref.collapse_shape %6 [[0, 1]] : memref<128x128xf32, #hivm.address_space<ub>> into memref<16384xf32, #hivm.address_space<ub>>
    %collapse_shape_0 = memref.collapse_shape %7 [[0, 1]] : memref<128x128xf32, #hivm.address_space<ub>> into memref<16384xf32, #hivm.address_space<ub>>
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.vrelu ins(%collapse_shape : memref<16384xf32, #hivm.address_space<ub>>) outs(%collapse_shape_0 : memref<16384xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_MTE3>] flag = 1
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.store ins(%7 : memref<128x128xf32, #hivm.address_space<ub>>) outs(%subview : memref<128x128xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    return
  }
}
