// What ascend-opt refuses of the rare ops although bishengir-opt 1.2.0 accepts it: a pad
// list or pad value that does not fit the operands, a gather_load with a mask but no
// other (bishengir's SameVariadicOperandSize group), load_scale outside gm -> cbuf or not
// 8-bit, batchMmadL1 operands that are not rank 3 or whose batches differ.
// RUN: ascend-opt %s --split-input-file --verify-diagnostics
func.func @vpad_pad_list(%a: memref<2x16xf16>, %c: memref<2x32xf16>, %p: f16) {
  // expected-error @+1 {{low pads 1 axes, but the operands have rank 2}}
  hivm.hir.vpad ins(%a : memref<2x16xf16>) outs(%c : memref<2x32xf16>) low[0] high[0, 16] pad_value %p : f16
  return
}

// -----

func.func @vpad_value_type(%a: memref<2x16xf16>, %c: memref<2x32xf16>, %p: i8) {
  // expected-error @+1 {{pad_value is i8, but the operands hold f16}}
  hivm.hir.vpad ins(%a : memref<2x16xf16>) outs(%c : memref<2x32xf16>) low[0, 0] high[0, 16] pad_value %p : i8
  return
}

// -----

func.func @vpad_types(%a: memref<2x16xf16>, %c: memref<2x32xf32>, %p: f16) {
  // expected-error @+1 {{source and destination element types differ (f16 vs f32)}}
  hivm.hir.vpad ins(%a : memref<2x16xf16>) outs(%c : memref<2x32xf32>) low[0, 0] high[0, 16] pad_value %p : f16
  return
}

// -----

func.func @vpad_negative(%a: memref<2x16xf16>, %c: memref<2x32xf16>, %p: f16) {
  // expected-error @+1 {{high pads must not be negative, got [0, -2]}}
  hivm.hir.vpad ins(%a : memref<2x16xf16>) outs(%c : memref<2x32xf16>) low[0, 0] high[0, -2] pad_value %p : f16
  return
}

// -----

func.func @vpad_in_gm(%a: memref<2x16xf16, #hivm.address_space<gm>>, %c: memref<2x32xf16>, %p: f16) {
  // expected-error @+1 {{vector input must be in ub, got gm}}
  hivm.hir.vpad ins(%a : memref<2x16xf16, #hivm.address_space<gm>>) outs(%c : memref<2x32xf16>) low[0, 0] high[0, 16] pad_value %p : f16
  return
}

// -----

func.func @gather_mask_without_other(%base: memref<?xf32>, %idx: tensor<16x4xi32>, %mask: tensor<16x4xi1>, %m: memref<16x4xf32>, %c1: i64) {
  // expected-error @+1 {{mask and other given together or left out (one SameVariadicOperandSize group)}}
  hivm.hir.gather_load ins(%base : memref<?xf32>, %idx : tensor<16x4xi32>, %c1 : i64, %mask : tensor<16x4xi1>) outs(%m : memref<16x4xf32>)
  return
}

// -----

func.func @load_scale_to_ub(%s: memref<16x4xi8, #hivm.address_space<gm>>, %d: memref<1x1x16x16xi8, #hivm.address_space<ub>>) {
  // expected-error @+1 {{destination must be in cbuf, got ub (load_scale moves an MX scale tile gm -> cbuf)}}
  hivm.hir.load_scale ins(%s : memref<16x4xi8, #hivm.address_space<gm>>) outs(%d : memref<1x1x16x16xi8, #hivm.address_space<ub>>)
  return
}

// -----

func.func @load_scale_f16(%s: memref<16x4xf16, #hivm.address_space<gm>>, %d: memref<1x1x16x16xf16, #hivm.address_space<cbuf>>) {
  // expected-error @+1 {{an MX scale is 8-bit, got f16}}
  hivm.hir.load_scale ins(%s : memref<16x4xf16, #hivm.address_space<gm>>) outs(%d : memref<1x1x16x16xf16, #hivm.address_space<cbuf>>)
  return
}

// -----

func.func @batch_mmad_rank(%a: memref<64x32xf16>, %b: memref<32x48xf16>, %c: memref<64x48xf32>, %init: i1, %m: index) {
  // expected-error @+1 {{operand A must be a rank-3 memref (the batch axis first) (or rank-5 NZ fractals, as bishengir plans them)}}
  hivm.hir.batchMmadL1 ins(%a, %b, %init, %m, %m, %m : memref<64x32xf16>, memref<32x48xf16>, i1, index, index, index) outs(%c : memref<64x48xf32>)
  return
}

// -----

func.func @batch_mmad_batches(%a: memref<2x64x32xf16>, %b: memref<3x32x48xf16>, %c: memref<2x64x48xf32>, %init: i1, %m: index) {
  // expected-error @+1 {{the batch sizes of A, B and C differ ([2, 3])}}
  hivm.hir.batchMmadL1 ins(%a, %b, %init, %m, %m, %m : memref<2x64x32xf16>, memref<3x32x48xf16>, i1, index, index, index) outs(%c : memref<2x64x48xf32>)
  return
}

// -----

func.func @batch_mmad_k(%a: memref<2x64x32xf16>, %b: memref<2x16x48xf16>, %c: memref<2x64x48xf32>, %init: i1, %m: index) {
  // expected-error @+1 {{K of A (32) and K of B (16) differ}}
  hivm.hir.batchMmadL1 ins(%a, %b, %init, %m, %m, %m : memref<2x64x32xf16>, memref<2x16x48xf16>, i1, index, index, index) outs(%c : memref<2x64x48xf32>)
  return
}

// -----

func.func @batch_mmad_sync_args(%a: memref<2x64x32xf16>, %b: memref<2x32x48xf16>, %c: memref<2x64x48xf32>, %init: i1, %m: index, %e: i64) {
  // expected-error @+1 {{sync_related_args must be empty or 7 i64 values, got 2}}
  hivm.hir.batchMmadL1 ins(%a, %b, %init, %m, %m, %m : memref<2x64x32xf16>, memref<2x32x48xf16>, i1, index, index, index) outs(%c : memref<2x64x48xf32>) sync_related_args(%e, %e : i64, i64)
  return
}
