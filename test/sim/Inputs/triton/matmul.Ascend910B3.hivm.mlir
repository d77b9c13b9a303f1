#map = affine_map<()[s0, s1] -> (s1, s0)>
#map1 = affine_map<()[s0, s1] -> (s1 + 64, s0)>
#map2 = affine_map<()[s0, s1] -> (64, s0 - s1)>
#map3 = affine_map<()[s0] -> (s0 floordiv 64)>
#map4 = affine_map<()[s0, s1, s2] -> (s0 + s1 * s2)>
#map5 = affine_map<()[s0] -> ((s0 + 15) floordiv 16)>
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"NPU" : #hacc.target_device_spec<#dlti.dl_entry<"AI_CORE_COUNT", 20 : i32>, #dlti.dl_entry<"CUBE_CORE_COUNT", 20 : i32>, #dlti.dl_entry<"VECTOR_CORE_COUNT", 40 : i32>, #dlti.dl_entry<"UB_SIZE", 1572864 : i32>, #dlti.dl_entry<"L1_SIZE", 4194304 : i32>, #dlti.dl_entry<"L0A_SIZE", 524288 : i32>, #dlti.dl_entry<"L0B_SIZE", 524288 : i32>, #dlti.dl_entry<"L0C_SIZE", 1048576 : i32>, #dlti.dl_entry<"UB_ALIGN_SIZE", 256 : i32>, #dlti.dl_entry<"L1_ALIGN_SIZE", 256 : i32>, #dlti.dl_entry<"L0C_ALIGN_SIZE", 4096 : i32>>>, hacc.hivmc_compatible_print = true, hacc.hivmc_version = #hacc.hivmc_version<"0.0.0">, hivm.module_core_type = #hivm.module_core_type<AIC>} {
  func.func @matmul_kernel_infer_task_type_function() -> i8 attributes {hacc.function_kind = #hacc.function_kind<HOST>, hacc.host_func_type = #hacc.host_func_type<infer_task_type_function>} {
    %c20_i8 = arith.constant 20 : i8
    return %c20_i8 : i8
  }
  func.func @matmul_kernel(%arg0: i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}, %arg1: memref<?xi8, #hivm.address_space<gm>> {hacc.arg_type = #hacc.arg_type<sync_block_lock>}, %arg2: memref<?xi8, #hivm.address_space<gm>> {hacc.arg_type = #hacc.arg_type<workspace>}, %arg3: memref<?xf16, #hivm.address_space<gm>> {tt.tensor_kind = 0 : i32}, %arg4: memref<?xf16, #hivm.address_space<gm>> {tt.tensor_kind = 0 : i32}, %arg5: memref<?xf32, #hivm.address_space<gm>> {tt.tensor_kind = 1 : i32}, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32, %arg11: i32) attributes {SyncBlockLockArgIdx = 0 : i64, WorkspaceArgIdx = 1 : i64, func_dyn_memref_args = dense<[false, true, true, true, true, true, false, false, false, false, false, false]> : vector<12xi1>, hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>, hivm.storage_aligned, parallel_mode = "simd"} {
    %c-1_i64 = arith.constant -1 : i64
    %c2_i64 = arith.constant 2 : i64
    %c1_i64 = arith.constant 1 : i64
    %c0_i64 = arith.constant 0 : i64
    %c8192_i64 = arith.constant 8192 : i64
    %cst = arith.constant 0.000000e+00 : f16
    %c64 = arith.constant 64 : index
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    hivm.hir.set_mask_norm
    %0 = hivm.hir.get_block_idx -> i64
    %1 = arith.trunci %0 : i64 to i32
    %2 = arith.divsi %1, %arg11 : i32
    %3 = arith.remsi %2, %arg10 : i32
    %4 = arith.muli %arg11, %arg10 : i32
    %5 = arith.divsi %1, %4 : i32
    %6 = arith.remsi %5, %arg9 : i32
    %7 = arith.muli %6, %c64_i32 : i32
    %8 = arith.muli %3, %c64_i32 : i32
    %9 = arith.index_cast %7 : i32 to index
    %10 = arith.index_cast %arg8 : i32 to index
    %11 = arith.index_cast %arg6 : i32 to index
    %12 = affine.max #map()[%9, %11]
    %13 = affine.min #map1()[%12, %9]
    %14 = affine.min #map2()[%13, %9]
    %15 = arith.cmpi slt, %14, %c64 : index
    %16 = arith.index_cast %arg7 : i32 to index
    %17 = arith.index_cast %8 : i32 to index
    %18 = affine.max #map()[%17, %16]
    %19 = affine.min #map1()[%18, %17]
    %20 = affine.min #map2()[%19, %17]
    %21 = arith.cmpi slt, %20, %c64 : index
    %22 = hivm.hir.pointer_cast(%c0_i64) : memref<4x4x16x16xf32, #hivm.address_space<cc>>
    %cast = memref.cast %22 : memref<4x4x16x16xf32, #hivm.address_space<cc>> to memref<?x?x?x?xf32, #hivm.address_space<cc>>
    hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID1>]
    hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID2>]
    scf.for %arg12 = %c0_i32 to %arg8 step %c64_i32  : i32 {
      %26 = arith.index_cast %arg12 : i32 to index
      %27 = affine.apply #map3()[%26]
      %28 = arith.index_cast %27 : index to i64
      %29 = arith.index_cast %arg12 : i32 to index
      %30 = affine.apply #map4()[%29, %9, %10]
      %reinterpret_cast_2 = memref.reinterpret_cast %arg3 to offset: [%30], sizes: [64, 64], strides: [%10, 1] : memref<?xf16, #hivm.address_space<gm>> to memref<64x64xf16, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
      %31 = hivm.hir.pointer_cast(%c0_i64) : memref<4x4x16x16xf16, #hivm.address_space<cbuf>>
      %cast_3 = memref.cast %31 : memref<4x4x16x16xf16, #hivm.address_space<cbuf>> to memref<?x?x?x?xf16, #hivm.address_space<cbuf>>
      %32 = affine.max #map()[%29, %10]
      %33 = affine.min #map1()[%32, %29]
      %34 = affine.min #map2()[%33, %29]
      %35 = arith.cmpi slt, %34, %c64 : index
      %36 = arith.ori %15, %35 : i1
      %subview_4 = memref.subview %reinterpret_cast_2[0, 0] [%14, %34] [1, 1] : memref<64x64xf16, strided<[?, 1], offset: ?>, #hivm.address_space<gm>> to memref<?x?xf16, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
      %37 = affine.apply #map5()[%14]
      %38 = affine.apply #map5()[%34]
      %subview_5 = memref.subview %31[0, 0, 0, 0] [%38, %37, 16, 16] [1, 1, 1, 1] : memref<4x4x16x16xf16, #hivm.address_space<cbuf>> to memref<?x?x16x16xf16, strided<[1024, 256, 16, 1]>, #hivm.address_space<cbuf>>
      %cast_6 = memref.cast %subview_5 : memref<?x?x16x16xf16, strided<[1024, 256, 16, 1]>, #hivm.address_space<cbuf>> to memref<?x?x?x?xf16, strided<[?, ?, ?, 1], offset: ?>, #hivm.address_space<cbuf>>
      scf.if %36 {
        hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
        %collapse_shape = memref.collapse_shape %31 [[0, 1, 2, 3]] : memref<4x4x16x16xf16, #hivm.address_space<cbuf>> into memref<4096xf16, #hivm.address_space<cbuf>>
        hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
        hivm.hir.vbrc ins(%cst : f16) outs(%collapse_shape : memref<4096xf16, #hivm.address_space<cbuf>>)
        hivm.hir.pipe_barrier[<PIPE_MTE2>]
      } {hivm.unlikely_condition}
      hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID1>]
      hivm.hir.nd2nz {dst_continuous} ins(%subview_4 : memref<?x?xf16, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>) outs(%cast_6 : memref<?x?x?x?xf16, strided<[?, ?, ?, 1], offset: ?>, #hivm.address_space<cbuf>>) init_out_buffer = false
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
      %39 = affine.apply #map4()[%17, %29, %16]
      %reinterpret_cast_7 = memref.reinterpret_cast %arg4 to offset: [%39], sizes: [64, 64], strides: [%16, 1] : memref<?xf16, #hivm.address_space<gm>> to memref<64x64xf16, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
      %40 = hivm.hir.pointer_cast(%c8192_i64) : memref<4x4x16x16xf16, #hivm.address_space<cbuf>>
      %cast_8 = memref.cast %40 : memref<4x4x16x16xf16, #hivm.address_space<cbuf>> to memref<?x?x?x?xf16, #hivm.address_space<cbuf>>
      %41 = arith.ori %35, %21 : i1
      %subview_9 = memref.subview %reinterpret_cast_7[0, 0] [%34, %20] [1, 1] : memref<64x64xf16, strided<[?, 1], offset: ?>, #hivm.address_space<gm>> to memref<?x?xf16, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
      %42 = affine.apply #map5()[%20]
      %subview_10 = memref.subview %40[0, 0, 0, 0] [%42, %38, 16, 16] [1, 1, 1, 1] : memref<4x4x16x16xf16, #hivm.address_space<cbuf>> to memref<?x?x16x16xf16, strided<[1024, 256, 16, 1]>, #hivm.address_space<cbuf>>
      %cast_11 = memref.cast %subview_10 : memref<?x?x16x16xf16, strided<[1024, 256, 16, 1]>, #hivm.address_space<cbuf>> to memref<?x?x?x?xf16, strided<[?, ?, ?, 1], offset: ?>, #hivm.address_space<cbuf>>
      scf.if %41 {
        hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
        %collapse_shape = memref.collapse_shape %40 [[0, 1, 2, 3]] : memref<4x4x16x16xf16, #hivm.address_space<cbuf>> into memref<4096xf16, #hivm.address_space<cbuf>>
        hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
        hivm.hir.vbrc ins(%cst : f16) outs(%collapse_shape : memref<4096xf16, #hivm.address_space<cbuf>>)
        hivm.hir.pipe_barrier[<PIPE_MTE2>]
      } {hivm.unlikely_condition}
      hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID2>]
      hivm.hir.nd2nz {dst_continuous} ins(%subview_9 : memref<?x?xf16, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>) outs(%cast_11 : memref<?x?x?x?xf16, strided<[?, ?, ?, 1], offset: ?>, #hivm.address_space<cbuf>>) init_out_buffer = false
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID1>]
      %43 = arith.cmpi eq, %arg12, %c0_i32 : i32
      hivm.hir.mmadL1 {fixpipe_for_result_already_inserted = true} ins(%cast_3, %cast_8, %43, %14, %34, %20 : memref<?x?x?x?xf16, #hivm.address_space<cbuf>>, memref<?x?x?x?xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%cast : memref<?x?x?x?xf32, #hivm.address_space<cc>>) sync_related_args(%c0_i64, %c1_i64, %c1_i64, %c2_i64, %28, %c-1_i64, %c-1_i64 : i64, i64, i64, i64, i64, i64, i64)
    } {fixpipe_for_mmad_result_already_inserted = true}
    hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID1>]
    hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID2>]
    hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    %23 = affine.apply #map4()[%17, %9, %16]
    %reinterpret_cast = memref.reinterpret_cast %arg5 to offset: [%23], sizes: [64, 64], strides: [%16, 1] : memref<?xf32, #hivm.address_space<gm>> to memref<64x64xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
    %24 = affine.apply #map5()[%14]
    %25 = affine.apply #map5()[%20]
    %subview = memref.subview %22[0, 0, 0, 0] [%25, %24, 16, 16] [1, 1, 1, 1] : memref<4x4x16x16xf32, #hivm.address_space<cc>> to memref<?x?x16x16xf32, strided<[1024, 256, 16, 1]>, #hivm.address_space<cc>>
    %cast_0 = memref.cast %subview : memref<?x?x16x16xf32, strided<[1024, 256, 16, 1]>, #hivm.address_space<cc>> to memref<?x?x?x?xf32, strided<[?, ?, ?, 1], offset: ?>, #hivm.address_space<cc>>
    %subview_1 = memref.subview %reinterpret_cast[0, 0] [%14, %20] [1, 1] : memref<64x64xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>> to memref<?x?xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    hivm.hir.fixpipe {enable_nz2nd} ins(%cast_0 : memref<?x?x?x?xf32, strided<[?, ?, ?, 1], offset: ?>, #hivm.address_space<cc>>) outs(%subview_1 : memref<?x?xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    return
  }
}
