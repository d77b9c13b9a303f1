func.func @matmul_kernel_mix_aiv(%arg0: i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}, %arg1: memref<?xi8> {hacc.arg_type = #hacc.arg_type<sync_block_lock>}, %arg2: memref<?xi8> {hacc.arg_type = #hacc.arg_type<workspace>}, %arg3: memref<?xf16> {tt.tensor_kind = 0 : i32}, %arg4: memref<?xf16> {tt.tensor_kind = 0 : i32}, %arg5: memref<?xf32> {tt.tensor_kind = 1 : i32}, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32, %arg11: i32) attributes {SyncBlockLockArgIdx = 0 : i64, WorkspaceArgIdx = 1 : i64, func_dyn_memref_args = dense<[false, true, true, true, true, true, false, false, false, false, false, false]> : vector<12xi1>, hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix, parallel_mode = "simd"} {
  %c32 = arith.constant 32 : index
  %c1_i32 = arith.constant 1 : i32
  %c64 = arith.constant 64 : index
  %c64_i32 = arith.constant 64 : i32
  %c0_i32 = arith.constant 0 : i32
  %cst = arith.constant 0.000000e+00 : f32
  %0 = arith.muli %arg9, %arg10 : i32
  %1 = arith.muli %0, %arg11 : i32
  %2 = hivm.hir.get_block_idx -> i64
  %3 = arith.trunci %2 : i64 to i32
  %4 = arith.remsi %3, %arg9 : i32
  %5 = arith.muli %4, %c64_i32 : i32
  %6 = arith.index_cast %5 : i32 to index
  %7 = affine.apply affine_map<()[s0] -> (s0 + 64)>()[%6]
  %8 = arith.index_cast %2 : i64 to index
  %9 = affine.apply affine_map<()[s0] -> (s0 * 16384)>()[%8]
  %view = memref.view %arg2[%9][] : memref<?xi8> to memref<64x64xf32>
  %10 = arith.index_cast %arg7 : i32 to index
  %11 = arith.index_cast %arg6 : i32 to index
  %12 = arith.maxsi %6, %11 : index
  %13 = arith.minsi %7, %12 : index
  %14 = affine.apply affine_map<()[s0, s1] -> (s0 - s1)>()[%13, %6]
  %15 = arith.minsi %14, %c64 : index
  %16 = hivm.hir.get_sub_block_idx -> i64
  %17 = arith.index_cast %16 : i64 to index
  %18 = affine.apply affine_map<()[s0] -> (s0 * 32)>()[%17]
  hivm.hir.anchor {id = 0 : i64}
  hivm.hir.set_ffts_base_addr %arg0
  hivm.hir.set_mask_norm
  annotation.mark %1 {logical_block_num} : i32
  %19 = arith.divsi %3, %arg9 : i32
  %20 = arith.remsi %19, %arg10 : i32
  %21 = arith.muli %20, %c64_i32 : i32
  %alloca = memref.alloca() {normalize_matmul_counter} : memref<i32>
  hivm.hir.anchor {id = 1 : i64}
  memref.store %c0_i32, %alloca[] : memref<i32>
  hivm.hir.anchor {id = 2 : i64}
  scf.for %arg12 = %c0_i32 to %arg8 step %c64_i32  : i32 {
    hivm.hir.anchor {id = 3 : i64}
    hivm.hir.anchor {id = 4 : i64}
    hivm.hir.anchor {id = 5 : i64}
    hivm.hir.anchor {id = 6 : i64}
    hivm.hir.anchor {id = 7 : i64}
    hivm.hir.anchor {id = 8 : i64}
    %35 = memref.load %alloca[] : memref<i32>
    hivm.hir.anchor {id = 9 : i64}
    hivm.hir.anchor {id = 10 : i64}
    %36 = arith.addi %35, %c1_i32 : i32
    memref.store %36, %alloca[] : memref<i32>
    hivm.hir.anchor {id = 11 : i64}
  } {fixpipe_for_mmad_result_already_inserted = true, may_not_exec, normalized_in_L0C = [0 : i32]}
  hivm.hir.anchor {id = 12 : i64}
  hivm.hir.anchor {id = 13 : i64}
  %22 = memref.load %alloca[] : memref<i32>
  hivm.hir.anchor {id = 14 : i64}
  %23 = arith.cmpi eq, %22, %c0_i32 : i32
  %24 = scf.if %23 -> (memref<32x64xf32, strided<[?, ?], offset: ?>>) {
    hivm.hir.anchor {id = 15 : i64}
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<32x64xf32>
    hivm.hir.vbrc ins(%cst : f32) outs(%alloc : memref<32x64xf32>)
    hivm.hir.anchor {id = 16 : i64}
    %cast = memref.cast %alloc : memref<32x64xf32> to memref<32x64xf32, strided<[?, ?], offset: ?>>
    scf.yield %cast : memref<32x64xf32, strided<[?, ?], offset: ?>>
  } else {
    hivm.hir.anchor {id = 17 : i64}
    %subview_2 = memref.subview %view[%18, 0] [32, 64] [1, 1] {to_be_bubbled_slice} : memref<64x64xf32> to memref<32x64xf32, strided<[64, 1], offset: ?>>
    %cast = memref.cast %subview_2 : memref<32x64xf32, strided<[64, 1], offset: ?>> to memref<32x64xf32, strided<[?, ?], offset: ?>>
    scf.yield %cast : memref<32x64xf32, strided<[?, ?], offset: ?>>
  }
  %25 = arith.index_cast %21 : i32 to index
  %26 = affine.apply affine_map<()[s0, s1, s2] -> (s0 + s1 * s2)>()[%25, %6, %10]
  %27 = affine.apply affine_map<()[s0] -> (s0 + 64)>()[%25]
  %reinterpret_cast = memref.reinterpret_cast %arg5 to offset: [%26], sizes: [64, 64], strides: [%10, 1] : memref<?xf32> to memref<64x64xf32, strided<[?, 1], offset: ?>>
  %subview = memref.subview %reinterpret_cast[%18, 0] [32, 64] [1, 1] {to_be_bubbled_slice} : memref<64x64xf32, strided<[?, 1], offset: ?>> to memref<32x64xf32, strided<[?, 1], offset: ?>>
  %28 = arith.maxsi %25, %10 : index
  %29 = arith.minsi %27, %28 : index
  %30 = affine.apply affine_map<()[s0, s1] -> (s0 - s1)>()[%29, %25]
  %31 = arith.minsi %30, %c64 : index
  hivm.hir.anchor {id = 18 : i64}
  %32 = arith.minsi %18, %15 : index
  %33 = affine.apply affine_map<()[s0, s1] -> (s0 - s1)>()[%15, %32]
  %34 = arith.minsi %33, %c32 : index
  %subview_0 = memref.subview %24[0, 0] [%34, %31] [1, 1] : memref<32x64xf32, strided<[?, ?], offset: ?>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  hivm.hir.anchor {id = 19 : i64}
  %subview_1 = memref.subview %subview[0, 0] [%34, %31] [1, 1] : memref<32x64xf32, strided<[?, 1], offset: ?>> to memref<?x?xf32, strided<[?, 1], offset: ?>>
  hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_S>] flag = 0
  hivm.hir.store ins(%subview_0 : memref<?x?xf32, strided<[?, ?], offset: ?>>) outs(%subview_1 : memref<?x?xf32, strided<[?, 1], offset: ?>>) {tiled_op}
  hivm.hir.anchor {id = 20 : i64}
  return
}
