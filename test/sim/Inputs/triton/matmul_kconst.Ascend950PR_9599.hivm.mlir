#map = affine_map<()[s0] -> (s0 + 64)>
#map1 = affine_map<()[s0, s1] -> (s0 - s1)>
#map2 = affine_map<()[s0, s1] -> (s0 + s1 * 128)>
#map3 = affine_map<()[s0, s1] -> ((s0 - s1 + 15) floordiv 16)>
#map4 = affine_map<()[s0, s1, s2] -> (s0 + s1 * s2)>
#map5 = affine_map<()[s0] -> ((s0 + 15) floordiv 16)>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"NPU" : #hacc.target_device_spec<#dlti.dl_entry<"AI_CORE_COUNT", 24 : i32>, #dlti.dl_entry<"CUBE_CORE_COUNT", 24 : i32>, #dlti.dl_entry<"VECTOR_CORE_COUNT", 48 : i32>, #dlti.dl_entry<"UB_SIZE", 1572864 : i32>, #dlti.dl_entry<"L1_SIZE", 4194304 : i32>, #dlti.dl_entry<"L0A_SIZE", 524288 : i32>, #dlti.dl_entry<"L0B_SIZE", 524288 : i32>, #dlti.dl_entry<"L0C_SIZE", 1048576 : i32>, #dlti.dl_entry<"UB_ALIGN_SIZE", 256 : i32>, #dlti.dl_entry<"L1_ALIGN_SIZE", 256 : i32>, #dlti.dl_entry<"L0C_ALIGN_SIZE", 4096 : i32>, #dlti.dl_entry<"MINIMAL_D_CACHE_SIZE", 0 : i32>, #dlti.dl_entry<"MAXIMUM_D_CACHE_SIZE", 0 : i32>, #dlti.dl_entry<"ARCH", "dav-c220">>>, hacc.target = #hacc.target<"Ascend910B1">, hivm.module_core_type = #hivm.module_core_type<AIC>} {
  func.func @matmul_kconst_kernel(%arg0: i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}, %arg1: memref<?xi8, #hivm.address_space<gm>> {hacc.arg_type = #hacc.arg_type<sync_block_lock>}, %arg2: memref<?xi8, #hivm.address_space<gm>> {hacc.arg_type = #hacc.arg_type<workspace>}, %arg3: memref<?xf16, #hivm.address_space<gm>> {tt.tensor_kind = 0 : i32}, %arg4: memref<?xf16, #hivm.address_space<gm>> {tt.tensor_kind = 0 : i32}, %arg5: memref<?xf32, #hivm.address_space<gm>> {tt.tensor_kind = 1 : i32}, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32) attributes {SyncBlockLockArgIdx = 0 : i64, WorkspaceArgIdx = 1 : i64, func_dyn_memref_args = dense<[false, true, true, true, true, true, false, false, false, false, false]> : vector<11xi1>, hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>, parallel_mode = "simd"} {
    %c-1_i64 = arith.constant -1 : i64
    %c0_i32 = arith.constant 0 : i32
    %c128_i32 = arith.constant 128 : i32
    %c64_i32 = arith.constant 64 : i32
    %c64 = arith.constant 64 : index
    %cst = arith.constant 0.000000e+00 : f16
    %c1_i32 = arith.constant 1 : i32
    %c8192_i64 = arith.constant 8192 : i64
    %c1_i64 = arith.constant 1 : i64
    %c2_i64 = arith.constant 2 : i64
    %c0 = arith.constant 0 : index
    %c0_i64 = arith.constant 0 : i64
    %alloca = memref.alloca() {hivm.multi_buffer_counter_for = 0 : i64} : memref<1xi64>
    memref.store %c0_i64, %alloca[%c0] : memref<1xi64>
    hivm.hir.set_mask_norm
    %0 = hivm.hir.get_block_idx -> i64
    %1 = arith.trunci %0 : i64 to i32
    %2 = arith.remsi %1, %arg8 : i32
    %3 = arith.divsi %1, %arg8 : i32
    %4 = arith.remsi %3, %arg9 : i32
    %5 = arith.muli %2, %c64_i32 : i32
    %6 = arith.muli %4, %c64_i32 : i32
    %7 = arith.index_cast %5 : i32 to index
    %alloca_0 = memref.alloca() {normalize_matmul_counter} : memref<i32>
    memref.store %c0_i32, %alloca_0[] : memref<i32>
    %8 = affine.apply #map()[%7]
    %9 = arith.index_cast %arg6 : i32 to index
    %10 = arith.maxsi %7, %9 : index
    %11 = arith.minsi %8, %10 : index
    %12 = affine.apply #map1()[%11, %7]
    %13 = arith.cmpi slt, %12, %c64 : index
    %14 = arith.index_cast %arg7 : i32 to index
    %15 = arith.index_cast %6 : i32 to index
    %16 = affine.apply #map()[%15]
    %17 = arith.maxsi %15, %14 : index
    %18 = arith.minsi %16, %17 : index
    %19 = affine.apply #map1()[%18, %15]
    %20 = arith.cmpi slt, %19, %c64 : index
    %21 = hivm.hir.pointer_cast(%c0_i64) : memref<4x4x16x16xf32, #hivm.address_space<cc>>
    %cast = memref.cast %21 : memref<4x4x16x16xf32, #hivm.address_space<cc>> to memref<?x?x?x?xf32, #hivm.address_space<cc>>
    hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID1>]
    hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID2>]
    hivm.hir.set_flag[<PIPE_M>, <PIPE_MTE1>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_M>, <PIPE_MTE1>, <EVENT_ID1>]
    scf.for %arg11 = %c0_i32 to %c128_i32 step %c64_i32  : i32 {
      %27 = memref.load %alloca[%c0] {markDCacheInvalidatePatternVisited = 0 : i32} : memref<1xi64>
      %28 = arith.index_cast %arg11 : i32 to index
      %29 = affine.apply #map2()[%28, %7]
      %reinterpret_cast_2 = memref.reinterpret_cast %arg3 to offset: [%29], sizes: [64, 64], strides: [128, 1] : memref<?xf16, #hivm.address_space<gm>> to memref<64x64xf16, strided<[128, 1], offset: ?>, #hivm.address_space<gm>>
      %30 = hivm.hir.pointer_cast(%c0_i64) : memref<4x4x16x16xf16, #hivm.address_space<cbuf>>
      %cast_3 = memref.cast %30 : memref<4x4x16x16xf16, #hivm.address_space<cbuf>> to memref<?x?x?x?xf16, #hivm.address_space<cbuf>>
      %subview_4 = memref.subview %reinterpret_cast_2[0, 0] [%12, 64] [1, 1] : memref<64x64xf16, strided<[128, 1], offset: ?>, #hivm.address_space<gm>> to memref<?x64xf16, strided<[128, 1], offset: ?>, #hivm.address_space<gm>>
      %31 = affine.apply #map3()[%11, %7]
      %subview_5 = memref.subview %30[0, 0, 0, 0] [4, %31, 16, 16] [1, 1, 1, 1] : memref<4x4x16x16xf16, #hivm.address_space<cbuf>> to memref<4x?x16x16xf16, strided<[1024, 256, 16, 1]>, #hivm.address_space<cbuf>>
      %cast_6 = memref.cast %subview_5 : memref<4x?x16x16xf16, strided<[1024, 256, 16, 1]>, #hivm.address_space<cbuf>> to memref<?x?x?x?xf16, strided<[?, ?, ?, 1], offset: ?>, #hivm.address_space<cbuf>>
      scf.if %13 {
        hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
        %collapse_shape = memref.collapse_shape %30 [[0, 1, 2, 3]] : memref<4x4x16x16xf16, #hivm.address_space<cbuf>> into memref<4096xf16, #hivm.address_space<cbuf>>
        hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
        hivm.hir.vbrc ins(%cst : f16) outs(%collapse_shape : memref<4096xf16, #hivm.address_space<cbuf>>)
        hivm.hir.pipe_barrier[<PIPE_MTE2>]
      } {hivm.unlikely_condition}
      hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID1>]
      hivm.hir.nd2nz {dst_continuous} ins(%subview_4 : memref<?x64xf16, strided<[128, 1], offset: ?>, #hivm.address_space<gm>>) outs(%cast_6 : memref<?x?x?x?xf16, strided<[?, ?, ?, 1], offset: ?>, #hivm.address_space<cbuf>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
      %32 = affine.apply #map4()[%15, %28, %14]
      %reinterpret_cast_7 = memref.reinterpret_cast %arg4 to offset: [%32], sizes: [64, 64], strides: [%14, 1] : memref<?xf16, #hivm.address_space<gm>> to memref<64x64xf16, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
      %33 = hivm.hir.pointer_cast(%c8192_i64) : memref<4x4x16x16xf16, #hivm.address_space<cbuf>>
      %cast_8 = memref.cast %33 : memref<4x4x16x16xf16, #hivm.address_space<cbuf>> to memref<?x?x?x?xf16, #hivm.address_space<cbuf>>
      %subview_9 = memref.subview %reinterpret_cast_7[0, 0] [64, %19] [1, 1] : memref<64x64xf16, strided<[?, 1], offset: ?>, #hivm.address_space<gm>> to memref<64x?xf16, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
      %34 = affine.apply #map3()[%18, %15]
      %subview_10 = memref.subview %33[0, 0, 0, 0] [%34, 4, 16, 16] [1, 1, 1, 1] : memref<4x4x16x16xf16, #hivm.address_space<cbuf>> to memref<?x4x16x16xf16, strided<[1024, 256, 16, 1]>, #hivm.address_space<cbuf>>
      %cast_11 = memref.cast %subview_10 : memref<?x4x16x16xf16, strided<[1024, 256, 16, 1]>, #hivm.address_space<cbuf>> to memref<?x?x?x?xf16, strided<[?, ?, ?, 1], offset: ?>, #hivm.address_space<cbuf>>
      scf.if %20 {
        hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
        %collapse_shape = memref.collapse_shape %33 [[0, 1, 2, 3]] : memref<4x4x16x16xf16, #hivm.address_space<cbuf>> into memref<4096xf16, #hivm.address_space<cbuf>>
        hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
        hivm.hir.vbrc ins(%cst : f16) outs(%collapse_shape : memref<4096xf16, #hivm.address_space<cbuf>>)
        hivm.hir.pipe_barrier[<PIPE_MTE2>]
      } {hivm.unlikely_condition}
      hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID2>]
      hivm.hir.nd2nz {dst_continuous} ins(%subview_9 : memref<64x?xf16, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>) outs(%cast_11 : memref<?x?x?x?xf16, strided<[?, ?, ?, 1], offset: ?>, #hivm.address_space<cbuf>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID1>]
      %35 = memref.load %alloca_0[] {markDCacheInvalidatePatternVisited = 0 : i32} : memref<i32>
      %36 = arith.cmpi eq, %35, %c0_i32 : i32
      hivm.hir.mmadL1 {already_set_real_mkn, fixpipe_for_result_already_inserted = true, hivm.remain_in_l0c, normalized_in_L0C} ins(%cast_3, %cast_8, %36, %c64, %c64, %c64 : memref<?x?x?x?xf16, #hivm.address_space<cbuf>>, memref<?x?x?x?xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%cast : memref<?x?x?x?xf32, #hivm.address_space<cc>>) sync_related_args(%c0_i64, %c1_i64, %c1_i64, %c2_i64, %27, %c-1_i64, %c-1_i64 : i64, i64, i64, i64, i64, i64, i64)
      %37 = arith.addi %35, %c1_i32 : i32
      memref.store %37, %alloca_0[] : memref<i32>
      %38 = arith.addi %27, %c1_i64 : i64
      memref.store %38, %alloca[%c0] : memref<1xi64>
    } {fixpipe_for_mmad_result_already_inserted = true, hivm.multi_buffer_loop_id = 0 : i64, normalized_in_L0C = [0 : i32]}
    hivm.hir.wait_flag[<PIPE_M>, <PIPE_MTE1>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_M>, <PIPE_MTE1>, <EVENT_ID1>]
    hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID1>]
    hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID2>]
    hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    %22 = affine.apply #map4()[%15, %7, %14]
    %reinterpret_cast = memref.reinterpret_cast %arg5 to offset: [%22], sizes: [64, 64], strides: [%14, 1] : memref<?xf32, #hivm.address_space<gm>> to memref<64x64xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
    %23 = arith.minsi %12, %c64 : index
    %24 = arith.minsi %19, %c64 : index
    %25 = affine.apply #map5()[%23]
    %26 = affine.apply #map5()[%24]
    %subview = memref.subview %21[0, 0, 0, 0] [%26, %25, 16, 16] [1, 1, 1, 1] : memref<4x4x16x16xf32, #hivm.address_space<cc>> to memref<?x?x16x16xf32, strided<[1024, 256, 16, 1]>, #hivm.address_space<cc>>
    %subview_1 = memref.subview %reinterpret_cast[0, 0] [%23, %24] [1, 1] : memref<64x64xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>> to memref<?x?xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%subview : memref<?x?x16x16xf32, strided<[1024, 256, 16, 1]>, #hivm.address_space<cc>>) outs(%subview_1 : memref<?x?xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    return
  }
}
