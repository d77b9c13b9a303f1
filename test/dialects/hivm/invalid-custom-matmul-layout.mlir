// The verifier errors of custom, custom_macro, the global matmuls and convert_layout, in
// bishengir-opt 1.2.0's words: test/interop/bishengir-opt/invalid-custom-matmul-layout.mlir
// runs the real bishengir-opt on this file with the same expectations.
// RUN: ascend-opt %s --split-input-file --verify-diagnostics
func.func @custom_without_core(%a: memref<4xf32>) {
  // expected-error @+1 {{Missing core type information}}
  hivm.hir.custom {hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k"} "user.k" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

func.func @custom_without_pipe(%a: memref<4xf32>) {
  // expected-error @+1 {{Missing pipe information}}
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, symbol = "k"} "user.k" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

func.func @custom_without_symbol(%a: memref<4xf32>) {
  // expected-error @+1 {{Missing implementation function name}}
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>} "user.k" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

func.func @custom_extra_buffer_mismatch(%a: memref<4xf32>) {
  // expected-error @+1 {{Extra buffers' types and sizes mismatch}}
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k", extra_buffers_types = [f32, f16], extra_buffers_sizes = [256 : i64]} "user.k" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

func.func @custom_extra_buffer_types_only(%a: memref<4xf32>) {
  // expected-error @+1 {{Either extra buffers' types or sizes missing}}
  hivm.hir.custom {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe = #hivm.pipe<PIPE_V>, symbol = "k", extra_buffers_types = [f32]} "user.k" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

func.func @macro_without_output_pipe(%a: memref<4xf32>) {
  // expected-error @+1 {{Missing output pipe information}}
  hivm.hir.custom_macro {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, symbol = "k"} "user.k" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

func.func @macro_sync_args_without_slots(%a: memref<4xf32>, %e: i64) {
  // expected-error @+1 {{sync_related_args should be empty}}
  hivm.hir.custom_macro {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>, symbol = "k"} "user.k" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) sync_related_args(%e : i64)
  return
}

// -----

func.func @macro_sync_args_count(%a: memref<4xf32>, %e: i64) {
  // expected-error @+1 {{sync_related_args should be of size 2}}
  hivm.hir.custom_macro {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>, symbol = "k", sync_event_slots = [#hivm.sync_event_slot<internal>, #hivm.sync_event_slot<internal>]} "user.k" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) sync_related_args(%e : i64)
  return
}

// -----

func.func @macro_duplicate_event(%a: memref<4xf32>) {
  // expected-error @+1 {{duplicate user-specified sync event id on the same pipe pair}}
  hivm.hir.custom_macro {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>, symbol = "k", sync_event_slots = [#hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_MTE1>, set, <EVENT_ID0>>, #hivm.sync_event_slot<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_MTE1>, set, <EVENT_ID0>>]} "user.k" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

func.func @macro_duplicate_internal_event(%a: memref<4xf32>) {
  // expected-error @+1 {{duplicate user-specified sync event id on internal slot}}
  hivm.hir.custom_macro {hivm.tcore_type = #hivm.tcore_type<VECTOR>, hivm.pipe_in = #hivm.pipe<PIPE_MTE2>, hivm.pipe_out = #hivm.pipe<PIPE_V>, symbol = "k", sync_event_slots = [#hivm.sync_event_slot<internal, <EVENT_ID2>>, #hivm.sync_event_slot<#hivm.pipe<PIPE_M>, #hivm.pipe<PIPE_V>, internal, <EVENT_ID2>>]} "user.k" ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

func.func @matmul_rank(%a: memref<4x16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf32>) {
  // expected-error @+1 {{matrix A and matrix B must be 2D}}
  hivm.hir.matmul ins(%a, %b : memref<4x16x16xf16>, memref<16x16xf16>) outs(%c : memref<16x16xf32>)
  return
}

// -----

func.func @matmul_bias_size(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %bias: memref<32xf16>, %c: memref<16x16xf16>) {
  // expected-error @+1 {{The size of bias is equal to the col size of B}}
  hivm.hir.matmul ins(%a, %b : memref<16x16xf16>, memref<16x16xf16>) outs(%c : memref<16x16xf16>) bias = %bias : memref<32xf16>
  return
}

// -----

func.func @matmul_bias_rank(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf16>) {
  // expected-error @+1 {{bias must must be 1D}}
  hivm.hir.matmul ins(%a, %b : memref<16x16xf16>, memref<16x16xf16>) outs(%c : memref<16x16xf16>) bias = %c : memref<16x16xf16>
  return
}

// -----

func.func @matmul_descale_missing(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf16>) {
  // expected-error @+1 {{The descaleMode is defined, descale params must be defined!}}
  hivm.hir.matmul ins(%a, %b : memref<16x16xf16>, memref<16x16xf16>) outs(%c : memref<16x16xf16>) descale_mode = #hivm.descale_mode<DescalePerTensor>
  return
}

// -----

func.func @matmul_descale_per_tensor(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %d: memref<16xf16>, %c: memref<16x16xf16>) {
  // expected-error @+1 {{The descaleMode is DescalePerTensor, the size of descale is equal to 1}}
  hivm.hir.matmul ins(%a, %b : memref<16x16xf16>, memref<16x16xf16>) outs(%c : memref<16x16xf16>) descale = %d : memref<16xf16> descale_mode = #hivm.descale_mode<DescalePerTensor>
  return
}

// -----

func.func @matmul_descale_per_channel(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %d: memref<3xf16>, %c: memref<16x16xf16>) {
  // expected-error @+1 {{The descaleMode is DescalePerChannel, the size of descale is equal to the col size of B}}
  hivm.hir.matmul ins(%a, %b : memref<16x16xf16>, memref<16x16xf16>) outs(%c : memref<16x16xf16>) descale = %d : memref<3xf16> descale_mode = #hivm.descale_mode<DescalePerChannel>
  return
}

// -----

func.func @matmul_tiling_twice(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %p: memref<16xi64>, %c: memref<16x16xf16>, %s: i64) {
  // expected-error @+1 {{`TilingParams` and the other explicit tiling params cannot be set at the same time}}
  hivm.hir.matmul ins(%a, %b : memref<16x16xf16>, memref<16x16xf16>) outs(%c : memref<16x16xf16>) tiling_params = %p : memref<16xi64> swizzle_offset = %s : i64
  return
}

// -----

func.func @matmul_block_sizes(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf16>, %s: i64) {
  // expected-error @+1 {{The size of Blocksize should be 3. The order is blockM, blockN, blockK}}
  hivm.hir.matmul ins(%a, %b : memref<16x16xf16>, memref<16x16xf16>) outs(%c : memref<16x16xf16>) block_sizes(%s, %s : i64, i64)
  return
}

// -----

func.func @mix_matmul_rank(%a: memref<?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  // expected-error @+1 {{matrix A and matrix B must be 2D}}
  hivm.hir.mix_matmul ins(%a, %b : memref<?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
  return
}

// -----

func.func @mix_group_matmul_tokens(%a: memref<4x16x16xf16>, %b: memref<16x16xf16>, %t: memref<4x4xi64>, %c: memref<16x16xf16>) {
  // expected-error @+1 {{matrix TokensPerExpert must be 1D}}
  hivm.hir.mix_group_matmul ins(%a, %b, %t : memref<4x16x16xf16>, memref<16x16xf16>, memref<4x4xi64>) outs(%c : memref<16x16xf16>)
  return
}

// -----

func.func @convert_layout_element_type(%m: memref<128x128xf16>) {
  // expected-error @+1 {{requires the same element type for all operands and results}}
  %0 = hivm.hir.convert_layout %m output_shape [8, 8, 16, 16] {srcLayout = #hivm.data_layout<ND>, dstLayout = #hivm.data_layout<nZ>} : (memref<128x128xf16>) -> memref<8x8x16x16xf32>
  return
}

// -----

func.func @convert_layout_dynamic_count(%t: tensor<?x128xf16>) {
  // expected-error @+1 {{expected 1 dynamic dimensions but got 0}}
  %0 = "hivm.hir.convert_layout"(%t) <{srcLayout = #hivm.data_layout<ND>, dstLayout = #hivm.data_layout<nZ>, static_output_shape = array<i64: -9223372036854775808, 8, 16, 16>}> : (tensor<?x128xf16>) -> tensor<?x8x16x16xf16>
  return
}


// -----

func.func @vtranspose_three_axes(%s: memref<16x8x32xf32>, %d: memref<8x32x16xf32>) {
  // expected-error @+1 {{Vtranspose only support two axes transpose}}
  hivm.hir.vtranspose ins(%s : memref<16x8x32xf32>) outs(%d : memref<8x32x16xf32>) permutation = [1, 2, 0]
  return
}

// -----

func.func @vtranspose_rank(%s: memref<16x32xf32>, %d: memref<32x16xf32>) {
  // expected-error @+1 {{Permutation size should be equal to src rank}}
  hivm.hir.vtranspose ins(%s : memref<16x32xf32>) outs(%d : memref<32x16xf32>) permutation = [1, 0, 2]
  return
}

// -----

func.func @vconcat_element_types(%a: memref<2x16xf16>, %b: memref<2x16xf32>, %c: memref<2x32xf16>) {
  // expected-error @+1 {{'hivm.hir.vconcat' op requires the same element type for all operands}}
  hivm.hir.vconcat dim(1) ins(%a, %b : memref<2x16xf16>, memref<2x16xf32>) outs(%c : memref<2x32xf16>)
  return
}
