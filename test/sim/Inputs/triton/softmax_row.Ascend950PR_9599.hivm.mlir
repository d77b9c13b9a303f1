module attributes {dlti.target_system_spec = #dlti.target_system_spec<"NPU" : #hacc.target_device_spec<#dlti.dl_entry<"AI_CORE_COUNT", 24 : i32>, #dlti.dl_entry<"CUBE_CORE_COUNT", 24 : i32>, #dlti.dl_entry<"VECTOR_CORE_COUNT", 48 : i32>, #dlti.dl_entry<"UB_SIZE", 1572864 : i32>, #dlti.dl_entry<"L1_SIZE", 4194304 : i32>, #dlti.dl_entry<"L0A_SIZE", 524288 : i32>, #dlti.dl_entry<"L0B_SIZE", 524288 : i32>, #dlti.dl_entry<"L0C_SIZE", 1048576 : i32>, #dlti.dl_entry<"UB_ALIGN_SIZE", 256 : i32>, #dlti.dl_entry<"L1_ALIGN_SIZE", 256 : i32>, #dlti.dl_entry<"L0C_ALIGN_SIZE", 4096 : i32>, #dlti.dl_entry<"MINIMAL_D_CACHE_SIZE", 0 : i32>, #dlti.dl_entry<"MAXIMUM_D_CACHE_SIZE", 0 : i32>, #dlti.dl_entry<"ARCH", "dav-c220">>>, hacc.target = #hacc.target<"Ascend910B1">, hivm.module_core_type = #hivm.module_core_type<AIV>} {
  func.func @softmax_row_kernel(%arg0: i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}, %arg1: memref<?xi8, #hivm.address_space<gm>> {hacc.arg_type = #hacc.arg_type<sync_block_lock>}, %arg2: memref<?xi8, #hivm.address_space<gm>> {hacc.arg_type = #hacc.arg_type<workspace>}, %arg3: memref<?xf32, #hivm.address_space<gm>> {tt.tensor_kind = 1 : i32}, %arg4: memref<?xf32, #hivm.address_space<gm>> {tt.tensor_kind = 0 : i32}, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32) attributes {SyncBlockLockArgIdx = 0 : i64, WorkspaceArgIdx = 1 : i64, func_dyn_memref_args = dense<[false, true, true, true, true, false, false, false, false, false]> : vector<10xi1>, hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>, parallel_mode = "simd"} {
    %c3968_i64 = arith.constant 3968 : i64
    %c3456_i64 = arith.constant 3456 : i64
    %c3424_i64 = arith.constant 3424 : i64
    %c3168_i64 = arith.constant 3168 : i64
    %c3136_i64 = arith.constant 3136 : i64
    %c3072_i64 = arith.constant 3072 : i64
    %c2048_i64 = arith.constant 2048 : i64
    %c1024_i64 = arith.constant 1024 : i64
    %c0_i64 = arith.constant 0 : i64
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %c-2139095040_i32 = arith.constant -2139095040 : i32
    %c2147483647_i32 = arith.constant 2147483647 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %c256 = arith.constant 256 : index
    %c0 = arith.constant 0 : index
    hivm.hir.set_mask_norm
    %0 = hivm.hir.get_block_idx -> i64
    %1 = arith.trunci %0 : i64 to i32
    %2 = arith.remsi %1, %arg7 : i32
    %3 = arith.muli %2, %arg5 : i32
    %4 = arith.index_cast %3 : i32 to index
    %reinterpret_cast = memref.reinterpret_cast %arg4 to offset: [%4], sizes: [256], strides: [1] : memref<?xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    %5 = hivm.hir.pointer_cast(%c0_i64) : memref<256xf32, #hivm.address_space<ub>>
    %6 = arith.index_cast %arg6 : i32 to index
    %7 = arith.maxsi %6, %c0 : index
    %8 = arith.minsi %7, %c256 : index
    %9 = arith.cmpi slt, %8, %c256 : index
    %subview = memref.subview %reinterpret_cast[0] [%8] [1] : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>> to memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    %subview_1 = memref.subview %5[0] [%8] [1] : memref<256xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
    scf.if %9 {
      hivm.hir.vbrc ins(%cst_0 : f32) outs(%5 : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
    } {hivm.unlikely_condition}
    hivm.hir.load ins(%subview : memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%subview_1 : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>) pad_mode = <PadValue> pad_value = %cst_0 : f32 eviction_policy = <EvictFirst>
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    %10 = hivm.hir.bitcast %5 : memref<256xf32, #hivm.address_space<ub>> -> memref<256xi32, #hivm.address_space<ub>>
    %11 = hivm.hir.pointer_cast(%c1024_i64) : memref<256xi32, #hivm.address_space<ub>>
    hivm.hir.vbrc ins(%c2147483647_i32 : i32) outs(%11 : memref<256xi32, #hivm.address_space<ub>>)
    %12 = hivm.hir.pointer_cast(%c1024_i64) : memref<256xi32, #hivm.address_space<ub>>
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.pipe_barrier[<PIPE_V>]
    hivm.hir.vand ins(%10, %11 : memref<256xi32, #hivm.address_space<ub>>, memref<256xi32, #hivm.address_space<ub>>) outs(%12 : memref<256xi32, #hivm.address_space<ub>>)
    %13 = hivm.hir.pointer_cast(%c1024_i64) : memref<256xi32, #hivm.address_space<ub>>
    hivm.hir.pipe_barrier[<PIPE_V>]
    hivm.hir.vadd ins(%12, %c-2139095040_i32 : memref<256xi32, #hivm.address_space<ub>>, i32) outs(%13 : memref<256xi32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_V>]
    hivm.hir.vmin ins(%13, %c1_i32 : memref<256xi32, #hivm.address_space<ub>>, i32) outs(%13 : memref<256xi32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_V>]
    hivm.hir.vmax ins(%13, %c0_i32 : memref<256xi32, #hivm.address_space<ub>>, i32) outs(%13 : memref<256xi32, #hivm.address_space<ub>>)
    %14 = hivm.hir.pointer_cast(%c1024_i64) : memref<256xf32, #hivm.address_space<ub>>
    hivm.hir.pipe_barrier[<PIPE_V>]
    hivm.hir.vcast {enable_overflow = false, enable_saturate = false, hivm.unsigned_mode = #hivm.unsigned_mode<si2si>} ins(%13 : memref<256xi32, #hivm.address_space<ub>>) outs(%14 : memref<256xf32, #hivm.address_space<ub>>)
    %15 = hivm.hir.pointer_cast(%c1024_i64) : memref<256xi1, #hivm.address_space<ub>>
    hivm.hir.pipe_barrier[<PIPE_V>]
    hivm.hir.vcmp ins(%14, %cst : memref<256xf32, #hivm.address_space<ub>>, f32) outs(%15 : memref<256xi1, #hivm.address_space<ub>>)
    %16 = hivm.hir.pointer_cast(%c1024_i64) : memref<256xi1, #hivm.address_space<ub>>
    hivm.hir.pipe_barrier[<PIPE_V>]
    hivm.hir.vnot ins(%15 : memref<256xi1, #hivm.address_space<ub>>) outs(%16 : memref<256xi1, #hivm.address_space<ub>>)
    %17 = hivm.hir.pointer_cast(%c2048_i64) : memref<256xf32, #hivm.address_space<ub>>
    %18 = hivm.hir.pointer_cast(%c3072_i64) : memref<16xf32, #hivm.address_space<ub>>
    hivm.hir.pipe_barrier[<PIPE_V>]
    hivm.hir.vsel ins(%16, %cst_0, %5 : memref<256xi1, #hivm.address_space<ub>>, f32, memref<256xf32, #hivm.address_space<ub>>) outs(%17 : memref<256xf32, #hivm.address_space<ub>>) temp_buffer(%18 : memref<16xf32, #hivm.address_space<ub>>)
    %19 = hivm.hir.pointer_cast(%c3136_i64) : memref<1xf32, #hivm.address_space<ub>>
    %20 = hivm.hir.pointer_cast(%c3168_i64) : memref<64xf32, #hivm.address_space<ub>>
    hivm.hir.pipe_barrier[<PIPE_V>]
    hivm.hir.vreduce <max> ins(%17 : memref<256xf32, #hivm.address_space<ub>>) outs(%19 : memref<1xf32, #hivm.address_space<ub>>) temp_buffer(%20 : memref<64xf32, #hivm.address_space<ub>>) unsigned_src = false reduce_dims = [0]
    hivm.hir.set_flag[<PIPE_V>, <PIPE_S>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_S>, <EVENT_ID0>]
    %21 = memref.load %19[%c0] {markDCacheInvalidatePatternVisited = 0 : i32} : memref<1xf32, #hivm.address_space<ub>>
    %22 = hivm.hir.pointer_cast(%c0_i64) : memref<256xf32, #hivm.address_space<ub>>
    %23 = arith.subf %cst, %21 : f32
    hivm.hir.vadd ins(%5, %23 : memref<256xf32, #hivm.address_space<ub>>, f32) outs(%22 : memref<256xf32, #hivm.address_space<ub>>)
    %24 = hivm.hir.pointer_cast(%c0_i64) : memref<256xf32, #hivm.address_space<ub>>
    hivm.hir.pipe_barrier[<PIPE_V>]
    hivm.hir.vexp ins(%22 : memref<256xf32, #hivm.address_space<ub>>) outs(%24 : memref<256xf32, #hivm.address_space<ub>>)
    %25 = hivm.hir.pointer_cast(%c3424_i64) : memref<1xf32, #hivm.address_space<ub>>
    %26 = hivm.hir.pointer_cast(%c3456_i64) : memref<128xf32, #hivm.address_space<ub>>
    hivm.hir.pipe_barrier[<PIPE_V>]
    hivm.hir.vreduce <sum> ins(%24 : memref<256xf32, #hivm.address_space<ub>>) outs(%25 : memref<1xf32, #hivm.address_space<ub>>) temp_buffer(%26 : memref<128xf32, #hivm.address_space<ub>>) unsigned_src = false reduce_dims = [0]
    hivm.hir.set_flag[<PIPE_V>, <PIPE_S>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_S>, <EVENT_ID0>]
    %27 = memref.load %25[%c0] {markDCacheInvalidatePatternVisited = 0 : i32} : memref<1xf32, #hivm.address_space<ub>>
    %28 = hivm.hir.pointer_cast(%c0_i64) : memref<256xf32, #hivm.address_space<ub>>
    %29 = hivm.hir.pointer_cast(%c3968_i64) : memref<8xf32, #hivm.address_space<ub>>
    hivm.hir.vdiv ins(%24, %27 : memref<256xf32, #hivm.address_space<ub>>, f32) outs(%28 : memref<256xf32, #hivm.address_space<ub>>) temp_buffer(%29 : memref<8xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    %reinterpret_cast_2 = memref.reinterpret_cast %arg3 to offset: [%4], sizes: [256], strides: [1] : memref<?xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    %subview_3 = memref.subview %28[0] [%8] [1] : memref<256xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
    %subview_4 = memref.subview %reinterpret_cast_2[0] [%8] [1] : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>> to memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.store ins(%subview_3 : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>) outs(%subview_4 : memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    return
  }
}
