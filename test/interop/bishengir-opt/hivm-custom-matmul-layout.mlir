// REQUIRES: bishengir
// custom, custom_macro, the global matmuls (matmul, mix_matmul, mix_group_matmul) and
// convert_layout, vtranspose, vflip and vconcat against the real bishengir-opt 1.2.0: our custom and generic output
// parses there and its output parses back here, and both printers give the same text
// for every hivm line, in custom and in generic form (SSA names normalised).
// RUN: ascend-opt %s | %bishengir_opt | ascend-opt | filecheck %s
// RUN: ascend-opt %s --print-op-generic | %bishengir_opt --mlir-print-op-generic | ascend-opt | filecheck %s
// RUN: %bishengir_opt %s | grep -E "hivm\.hir\." | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.bishengir
// RUN: ascend-opt %s | grep -E "hivm\.hir\." | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.ascend
// RUN: diff %t.bishengir %t.ascend
// RUN: %bishengir_opt %s --mlir-print-op-generic | grep -E "\"hivm\.hir\.(matmul|mix_|convert_layout|vtranspose|vflip|vconcat)" | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.bishengir-generic
// RUN: ascend-opt %s --print-op-generic | grep -E "\"hivm\.hir\.(matmul|mix_|convert_layout|vtranspose|vflip|vconcat)" | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.ascend-generic
// RUN: diff %t.bishengir-generic %t.ascend-generic

// CHECK: hivm.hir.custom {hivm.pipe = #hivm.pipe<PIPE_V>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "foo"} "my_op" ins({{.*}} : memref<?xf32>, tensor<3x3xi64>, i64) outs({{.*}} : tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK: hivm.hir.custom {extra_buffers_sizes = [512, 128], extra_buffers_types = [f32, f16], {{.*}}iterator_types = [#hivm.iterator_type<parallel>]
// CHECK-SAME: tmps({{.*}} : memref<512xf32>)
// CHECK: hivm.hir.custom_macro {{.*}}sync_event_slots = [#hivm.sync_event_slot<internal>, #hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_MTE1>, wait, <EVENT_ID1>>, #hivm.sync_event_slot<#hivm.pipe<PIPE_M>, #hivm.pipe<PIPE_MTE2>>]} "user.k"
// CHECK-SAME: sync_related_args({{.*}} : i64, i64, i64)
// CHECK: hivm.hir.matmul ins({{.*}}) outs({{.*}}) bias = {{.*}} descale = {{.*}} descale_mode = <DescalePerChannel>
// CHECK: hivm.hir.matmul {{.*}} a_transpose b_transpose block_sizes({{.*}} : i64, i64, i64) process_sizes({{.*}}) swizzle_offset = {{.*}} : i64 swizzle_direction = {{.*}} : i64 epilogue_p_tiles = {{.*}} : i64
// CHECK: hivm.hir.matmul {{.*}} tiling_params = {{.*}} -> tensor<16x16xf32>
// CHECK: hivm.hir.mix_matmul {post_vector_func = "epilogue"} ins({{.*}}) post_vector_func_ins({{.*}}) workspace_ins({{.*}}) outs({{.*}}) comm_params =
// CHECK: hivm.hir.mix_group_matmul ins({{.*}}, {{.*}}, {{.*}} : {{.*}}) post_vector_func_ins({{.*}}) post_vector_func_outs({{.*}}) outs(
// CHECK: hivm.hir.convert_layout {{.*}} output_shape [8, 8, 16, 16] {dstLayout = #hivm.data_layout<nZ>, srcLayout = #hivm.data_layout<dotA_ND, transpose = false>} : (memref<128x128xf16>) -> memref<8x8x16x16xf16>
// CHECK: hivm.hir.convert_layout {{.*}} output_shape [{{.*}}, 8, 16, 16] {dstLayout = #hivm.data_layout<zN, fractalSizes = [16, 16]>, srcLayout = #hivm.data_layout<ND>} : (tensor<?x128xf16>) -> tensor<?x8x16x16xf16>
func.func @custom_ops(%m: memref<?xf32>, %t: tensor<3x3xi64>, %n: i64, %b: memref<2x2xf32>, %tmp: memref<512xf32>, %e0: i64, %e1: i64, %e2: i64) {
  %empty = tensor.empty() : tensor<3x3xf32>
  %0 = hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, hivm.vf_mode = #hivm.vf_mode<SIMD>, symbol = "foo"} "my_op" ins(%m, %t, %n : memref<?xf32>, tensor<3x3xi64>, i64) outs(%empty : tensor<3x3xf32>) -> tensor<3x3xf32>
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "bar", iterator_types = [#hivm.iterator_type<parallel>], extra_buffers_types = [f32, f16], extra_buffers_sizes = [512 : i64, 128 : i64]} "my_op2" ins(%b : memref<2x2xf32>) outs(%b : memref<2x2xf32>) tmps(%tmp : memref<512xf32>)
  hivm.hir.custom_macro {hivm.tcore_type = #hivm.tcore_type<CUBE>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_FIX>, symbol = "k", sync_event_slots = [#hivm.sync_event_slot<internal>, #hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_MTE1>, wait, <EVENT_ID1>>, #hivm.sync_event_slot<#hivm.pipe<PIPE_M>, #hivm.pipe<PIPE_MTE2>, internal>]} "user.k" ins(%b : memref<2x2xf32>) outs(%b : memref<2x2xf32>) sync_related_args(%e0, %e1, %e2 : i64, i64, i64)
  return
}

func.func @global_matmuls(%a: memref<16x16xf16, #hivm.address_space<gm>>, %b: memref<16x16xf16, #hivm.address_space<gm>>,
                          %bias: memref<16xf16, #hivm.address_space<gm>>, %c: memref<16x16xf16, #hivm.address_space<gm>>,
                          %p: memref<16xi64, #hivm.address_space<gm>>, %a3: memref<4x16x16xf16, #hivm.address_space<gm>>,
                          %ta: tensor<16x16xf16>, %tc: tensor<16x16xf32>, %s: i64) {
  hivm.hir.matmul ins(%a, %b : memref<16x16xf16, #hivm.address_space<gm>>, memref<16x16xf16, #hivm.address_space<gm>>) outs(%c : memref<16x16xf16, #hivm.address_space<gm>>) bias = %bias : memref<16xf16, #hivm.address_space<gm>> descale = %bias : memref<16xf16, #hivm.address_space<gm>> descale_mode = #hivm.descale_mode<DescalePerChannel>
  hivm.hir.matmul ins(%a, %b : memref<16x16xf16, #hivm.address_space<gm>>, memref<16x16xf16, #hivm.address_space<gm>>) outs(%c : memref<16x16xf16, #hivm.address_space<gm>>) a_transpose b_transpose block_sizes(%s, %s, %s : i64, i64, i64) process_sizes(%s, %s, %s : i64, i64, i64) swizzle_offset = %s : i64 swizzle_direction = %s : i64 epilogue_p_tiles = %s : i64
  %r = hivm.hir.matmul ins(%ta, %ta : tensor<16x16xf16>, tensor<16x16xf16>) outs(%tc : tensor<16x16xf32>) tiling_params = %p : memref<16xi64, #hivm.address_space<gm>> -> tensor<16x16xf32>
  hivm.hir.mix_matmul {post_vector_func = "epilogue"} ins(%a, %b : memref<16x16xf16, #hivm.address_space<gm>>, memref<16x16xf16, #hivm.address_space<gm>>) post_vector_func_ins(%c : memref<16x16xf16, #hivm.address_space<gm>>) workspace_ins(%c : memref<16x16xf16, #hivm.address_space<gm>>) outs(%c : memref<16x16xf16, #hivm.address_space<gm>>) comm_params = %p : memref<16xi64, #hivm.address_space<gm>> bias = %bias : memref<16xf16, #hivm.address_space<gm>>
  hivm.hir.mix_group_matmul ins(%a3, %b, %p : memref<4x16x16xf16, #hivm.address_space<gm>>, memref<16x16xf16, #hivm.address_space<gm>>, memref<16xi64, #hivm.address_space<gm>>) post_vector_func_ins(%c : memref<16x16xf16, #hivm.address_space<gm>>) post_vector_func_outs(%c : memref<16x16xf16, #hivm.address_space<gm>>) outs(%c : memref<16x16xf16, #hivm.address_space<gm>>) tiling_params = %p : memref<16xi64, #hivm.address_space<gm>>
  return
}

func.func @layouts(%m: memref<128x128xf16>, %t: tensor<?x128xf16>, %n: index) {
  %0 = hivm.hir.convert_layout %m output_shape [8, 8, 16, 16] {srcLayout = #hivm.data_layout<dotA_ND, transpose = false>, dstLayout = #hivm.data_layout<nZ>} : (memref<128x128xf16>) -> memref<8x8x16x16xf16>
  %1 = hivm.hir.convert_layout %t output_shape [%n, 8, 16, 16] {srcLayout = #hivm.data_layout<ND>, dstLayout = #hivm.data_layout<zN, fractalSizes = [16, 16]>} : (tensor<?x128xf16>) -> tensor<?x8x16x16xf16>
  return
}

// CHECK: hivm.hir.vtranspose ins({{.*}} : memref<16x32xf32>) outs({{.*}} : memref<32x16xf32>) permutation = [1, 0]{{$}}
// CHECK: hivm.hir.vtranspose {{.*}} temp_buffer({{.*}} : memref<64xf32>) permutation = [1, 0] disable_align = true
// CHECK: hivm.hir.vtranspose {{.*}} permutation = [0, 2, 1] -> tensor<2x32x16xf32>
// CHECK: hivm.hir.vflip ins({{.*}}) outs({{.*}}) flip_axis = 1
// CHECK: hivm.hir.vconcat dim(1) ins({{.*}}, {{.*}} : memref<16x32xf32>, memref<16x32xf32>) outs({{.*}} : memref<16x64xf32>)
// CHECK: hivm.hir.vconcat dim(0) {note} ins({{.*}} : tensor<2x16x32xf32>, tensor<2x16x32xf32>, tensor<2x16x32xf32>) outs({{.*}} : tensor<6x16x32xf32>) -> tensor<6x16x32xf32>
func.func @moves(%s: memref<16x32xf32>, %d: memref<32x16xf32>, %tmp: memref<64xf32>, %t: tensor<2x16x32xf32>, %u: tensor<2x32x16xf32>,
                 %c: memref<16x64xf32>, %tc: tensor<6x16x32xf32>) {
  hivm.hir.vtranspose ins(%s : memref<16x32xf32>) outs(%d : memref<32x16xf32>) permutation = [1, 0]
  hivm.hir.vtranspose ins(%s : memref<16x32xf32>) outs(%d : memref<32x16xf32>) temp_buffer(%tmp : memref<64xf32>) permutation = [1, 0] disable_align = true
  %r = hivm.hir.vtranspose ins(%t : tensor<2x16x32xf32>) outs(%u : tensor<2x32x16xf32>) permutation = [0, 2, 1] -> tensor<2x32x16xf32>
  hivm.hir.vflip ins(%s : memref<16x32xf32>) outs(%s : memref<16x32xf32>) flip_axis = 1
  hivm.hir.vconcat dim(1) ins(%s, %s : memref<16x32xf32>, memref<16x32xf32>) outs(%c : memref<16x64xf32>)
  %j = hivm.hir.vconcat dim(0) {note} ins(%t, %t, %t : tensor<2x16x32xf32>, tensor<2x16x32xf32>, tensor<2x16x32xf32>) outs(%tc : tensor<6x16x32xf32>) -> tensor<6x16x32xf32>
  return
}
