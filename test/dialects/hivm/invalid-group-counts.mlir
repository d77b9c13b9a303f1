// An op that takes one value (or a fixed number) in its `ins(...)` or `outs(...)` group
// refuses another count as a located parse error, not a Python unpacking message or a
// silently dropped value.
// RUN: not ascend-opt %s --split-input-file 2>&1 | filecheck %s

// CHECK: invalid-group-counts.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: expected 1 value in `outs`, got 2
func.func @vconcat(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<8xf32>) {
  hivm.hir.vconcat dim(0) ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%c, %c : memref<8xf32>, memref<8xf32>)
  return
}

// -----

// CHECK: invalid-group-counts.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: expected 1 value in `outs`, got 2
func.func @vinterleave(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<8xf32>) {
  hivm.hir.vinterleave ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%c, %c : memref<8xf32>, memref<8xf32>) interleave_channel_nums = 2
  return
}

// -----

// CHECK: invalid-group-counts.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: expected 1 value in `outs`, got 2
func.func @matmul_outs(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf32>) {
  hivm.hir.matmul ins(%a, %b : memref<16x16xf16>, memref<16x16xf16>) outs(%c, %c : memref<16x16xf32>, memref<16x16xf32>)
  return
}

// -----

// CHECK: invalid-group-counts.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: expected 2 values in `ins`, got 3
func.func @matmul_ins(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf32>) {
  hivm.hir.matmul ins(%a, %b, %b : memref<16x16xf16>, memref<16x16xf16>, memref<16x16xf16>) outs(%c : memref<16x16xf32>)
  return
}
