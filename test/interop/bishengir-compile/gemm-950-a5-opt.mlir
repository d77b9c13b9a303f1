// The Ascend 950 cube example parses and verifies in the a5 build of bishengir-opt
// (bishengir-compile-a5 1.2.0 asserts on cube kernels, so compilation is not tried).
// REQUIRES: bishengir-a5
// RUN: ascend-opt %examples/gemm.mlir -p convert-tile-to-hivm -t npuir | %bishengir_opt_a5 | filecheck %s

// CHECK: hacc.target = #hacc.target<"Ascend950PR_9599">
// CHECK: func.func @gemm(
// CHECK: hivm.hir.nd2nz
// CHECK: hivm.hir.mmadL1
// CHECK: hivm.hir.fixpipe
