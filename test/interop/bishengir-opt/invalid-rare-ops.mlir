// REQUIRES: bishengir
// The real bishengir-opt 1.2.0 gives the errors that test/dialects/hivm/invalid-rare-ops.mlir
// expects of ascend-opt, case by case: the two verifiers agree on these ops.
// RUN: %bishengir_opt %S/../../dialects/hivm/invalid-rare-ops.mlir --split-input-file --verify-diagnostics
