// memref.copy's verifier in MLIR's words (mlir-opt 22 gives the same two messages).
// RUN: ascend-opt %s --split-input-file --verify-diagnostics

func.func @shape(%a: memref<4x8xf32>, %b: memref<4x9xf32>) {
  // expected-error @+1 {{'memref.copy' op requires the same shape for all operands}}
  memref.copy %a, %b : memref<4x8xf32> to memref<4x9xf32>
  return
}

// -----

func.func @rank(%a: memref<4x8xf32>, %b: memref<32xf32>) {
  // expected-error @+1 {{'memref.copy' op requires the same shape for all operands}}
  memref.copy %a, %b : memref<4x8xf32> to memref<32xf32>
  return
}

// -----

func.func @element_type(%a: memref<4x8xf32>, %b: memref<4x8xf16>) {
  // expected-error @+1 {{'memref.copy' op requires the same element type for all operands}}
  memref.copy %a, %b : memref<4x8xf32> to memref<4x8xf16>
  return
}
