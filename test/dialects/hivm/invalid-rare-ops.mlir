// The verifier errors of vpad, vinterleave, vdeinterleave, gather_load and scatter_store in
// bishengir-opt 1.2.0's words: test/interop/bishengir-opt/invalid-rare-ops.mlir runs the
// real bishengir-opt on this file with the same expectations. The checks ascend-opt makes
// beyond bishengir's are in invalid-rare-ops-stricter.mlir.
// RUN: ascend-opt %s --split-input-file --verify-diagnostics
func.func @vpad_rank(%a: memref<2x16x1xf16>, %c: memref<2x32xf16>, %p: f16) {
  // expected-error @+1 {{operands must have same rank}}
  hivm.hir.vpad ins(%a : memref<2x16x1xf16>) outs(%c : memref<2x32xf16>) low[0, 0] high[0, 16] pad_value %p : f16
  return
}

// -----

func.func @vinterleave_types(%a: memref<2x16xf16>, %b: memref<2x16xf32>, %c: memref<2x32xf16>) {
  // expected-error @+1 {{requires the same element type for all operands}}
  hivm.hir.vinterleave ins(%a, %b : memref<2x16xf16>, memref<2x16xf32>) outs(%c : memref<2x32xf16>) interleave_channel_nums = 2
  return
}

// -----

func.func @vinterleave_three(%a: memref<2x16xf16>, %c: memref<2x48xf16>) {
  // expected-error @+1 {{Only support interleave two tensor2}}
  hivm.hir.vinterleave ins(%a, %a, %a : memref<2x16xf16>, memref<2x16xf16>, memref<2x16xf16>) outs(%c : memref<2x48xf16>) interleave_channel_nums = 3
  return
}

// -----

func.func @vinterleave_channels(%a: memref<2x16xf16>, %c: memref<2x32xf16>) {
  // expected-error @+1 {{Only support interleave two tensor2}}
  hivm.hir.vinterleave ins(%a, %a : memref<2x16xf16>, memref<2x16xf16>) outs(%c : memref<2x32xf16>) interleave_channel_nums = 4
  return
}

// -----

func.func @vinterleave_rank(%a: memref<2x16xf16>, %e: memref<16xf16>, %c: memref<2x32xf16>) {
  // expected-error @+1 {{operands must have same rank}}
  hivm.hir.vinterleave ins(%a, %e : memref<2x16xf16>, memref<16xf16>) outs(%c : memref<2x32xf16>) interleave_channel_nums = 2
  return
}

// -----

func.func @vinterleave_f64(%a: memref<2x16xf64>, %c: memref<2x32xf64>) {
  // expected-error @+1 {{operand at idx 0 should have element type 16-bit signless integer or 16-bit float}}
  hivm.hir.vinterleave ins(%a, %a : memref<2x16xf64>, memref<2x16xf64>) outs(%c : memref<2x32xf64>) interleave_channel_nums = 2
  return
}

// -----

func.func @vdeinterleave_outputs(%a: memref<2x16xf16>, %c: memref<2x32xf16>) {
  // expected-error @+1 {{output num mismatch with channel num}}
  hivm.hir.vdeinterleave ins(%c : memref<2x32xf16>) outs(%a : memref<2x16xf16>)
  return
}

// -----

func.func @vdeinterleave_one_channel(%a: memref<2x16xf16>, %c: memref<2x32xf16>) {
  // expected-error @+1 {{output num for CHANNEL_0 CHANNEL_1 should be one}}
  hivm.hir.vdeinterleave ins(%c : memref<2x32xf16>) outs(%a, %a : memref<2x16xf16>, memref<2x16xf16>) index_mode = <CHANNEL_0>
  return
}

// -----

func.func @vdeinterleave_types(%a: memref<2x16xf16>, %b: memref<2x16xf32>, %c: memref<2x32xf16>) {
  // expected-error @+1 {{requires the same element type for all operands}}
  hivm.hir.vdeinterleave ins(%c : memref<2x32xf16>) outs(%a, %b : memref<2x16xf16>, memref<2x16xf32>)
  return
}

// -----

func.func @vdeinterleave_i1(%a: memref<2x16xi1>, %c: memref<2x32xi1>) {
  // expected-error @+1 {{operand at idx 0 should have element type 8-bit signless integer or 16-bit signless integer}}
  hivm.hir.vdeinterleave ins(%c : memref<2x32xi1>) outs(%a, %a : memref<2x16xi1>, memref<2x16xi1>)
  return
}

// -----

func.func @gather_other_shape(%base: memref<?xf32>, %idx: tensor<16x4xi32>, %mask: tensor<16x4xi1>, %other: tensor<4x16xf32>, %c1: i64) {
  %init = tensor.empty() : tensor<16x4xf32>
  // expected-error @+1 {{other of hivm::GatherLoadOp must have the same shape and rank as indices}}
  %0 = hivm.hir.gather_load ins(%base : memref<?xf32>, %idx : tensor<16x4xi32>, %c1 : i64, %mask : tensor<16x4xi1>, %other : tensor<4x16xf32>) outs(%init : tensor<16x4xf32>) -> tensor<16x4xf32>
  return
}

// -----

func.func @gather_other_type(%base: memref<?xf32>, %idx: tensor<16x4xi32>, %mask: tensor<16x4xi1>, %other: tensor<16x4xf16>, %c1: i64) {
  %init = tensor.empty() : tensor<16x4xf32>
  // expected-error @+1 {{other of hivm::GatherLoadOp must have the same element type as base}}
  %0 = hivm.hir.gather_load ins(%base : memref<?xf32>, %idx : tensor<16x4xi32>, %c1 : i64, %mask : tensor<16x4xi1>, %other : tensor<16x4xf16>) outs(%init : tensor<16x4xf32>) -> tensor<16x4xf32>
  return
}

// -----

func.func @gather_mask_shape(%base: memref<?xf32>, %idx: tensor<16x4xi32>, %mask: tensor<16x2xi1>, %other: tensor<16x4xf32>, %c1: i64) {
  %init = tensor.empty() : tensor<16x4xf32>
  // expected-error @+1 {{mask of hivm::GatherLoadOp must have the same shape and rank as indices}}
  %0 = hivm.hir.gather_load ins(%base : memref<?xf32>, %idx : tensor<16x4xi32>, %c1 : i64, %mask : tensor<16x2xi1>, %other : tensor<16x4xf32>) outs(%init : tensor<16x4xf32>) -> tensor<16x4xf32>
  return
}

// -----

func.func @gather_dst_type(%base: memref<?xf16>, %idx: tensor<16x4xi32>, %c1: i64) {
  %init = tensor.empty() : tensor<16x4xf32>
  // expected-error @+1 {{failed to verify that all of {base, dst} have same element type}}
  %0 = hivm.hir.gather_load ins(%base : memref<?xf16>, %idx : tensor<16x4xi32>, %c1 : i64) outs(%init : tensor<16x4xf32>) -> tensor<16x4xf32>
  return
}

// -----

func.func @gather_dst_shape(%base: memref<?xf32>, %idx: tensor<16x4xi32>, %c1: i64) {
  %init = tensor.empty() : tensor<16x8xf32>
  // expected-error @+1 {{failed to verify that all of {indices, dst} have same shape}}
  %0 = hivm.hir.gather_load ins(%base : memref<?xf32>, %idx : tensor<16x4xi32>, %c1 : i64) outs(%init : tensor<16x8xf32>) -> tensor<16x8xf32>
  return
}

// -----

func.func @scatter_mask_shape(%base: memref<?xf32>, %idx: tensor<16x4xi32>, %data: tensor<16x4xf32>, %mask: tensor<4xi1>, %c1: i64) {
  // expected-error @+1 {{mask of hivm::ScatterStoreOp must have the same shape and rank as data}}
  hivm.hir.scatter_store ins(%idx : tensor<16x4xi32>, %data : tensor<16x4xf32>, %c1 : i64, %mask : tensor<4xi1>) outs(%base : memref<?xf32>)
  return
}

// -----

func.func @scatter_base_type(%base: memref<?xf16>, %idx: tensor<16x4xi32>, %data: tensor<16x4xf32>, %c1: i64) {
  // expected-error @+1 {{failed to verify that all of {base, data} have same element type}}
  hivm.hir.scatter_store ins(%idx : tensor<16x4xi32>, %data : tensor<16x4xf32>, %c1 : i64) outs(%base : memref<?xf16>)
  return
}
