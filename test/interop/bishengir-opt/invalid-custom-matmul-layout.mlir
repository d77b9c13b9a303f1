// REQUIRES: bishengir
// The real bishengir-opt 1.2.0 gives the errors that test/dialects/hivm/invalid-custom-matmul-layout.mlir
// expects of ascend-opt, case by case: the two verifiers agree on these ops.
// RUN: %bishengir_opt %S/../../dialects/hivm/invalid-custom-matmul-layout.mlir --split-input-file --verify-diagnostics
