// The Ascend 950 examples' npuir (a5 syntax, chosen from hacc.target) parses and
// verifies in the a5 build of bishengir-opt.
// REQUIRES: bishengir-a5
// RUN: ascend-opt %examples/vecadd.mlir -p 'convert-tile-to-hivm,ascend-insert-barrier-sync{intra-core=false},peel-mmad-init,hoist-constants,split-mix-kernel' -t npuir | %bishengir_opt_a5 | filecheck %s --check-prefix=VECADD
// RUN: ascend-opt %examples/softmax.mlir -p 'convert-tile-to-hivm,ascend-insert-barrier-sync{intra-core=false},peel-mmad-init,hoist-constants,split-mix-kernel' -t npuir | %bishengir_opt_a5 | filecheck %s --check-prefix=SOFTMAX
// RUN: ascend-opt %examples/gemm.mlir -p 'convert-tile-to-hivm,ascend-insert-barrier-sync{intra-core=false},peel-mmad-init,hoist-constants,split-mix-kernel' -t npuir | %bishengir_opt_a5 | filecheck %s --check-prefix=GEMM
// RUN: ascend-opt %examples/gemm_relu.mlir -p 'convert-tile-to-hivm,ascend-insert-barrier-sync{intra-core=false},peel-mmad-init,hoist-constants,split-mix-kernel' -t npuir | %bishengir_opt_a5 | filecheck %s --check-prefix=MIX

// The generic form too (vreduce with the a5 build's three operand segments):
// RUN: ascend-opt %examples/softmax.mlir -p ascend-compile -t 'npuir{generic=true}' | %bishengir_opt_a5 | filecheck %s --check-prefix=SOFTMAX

// VECADD: func.func @vecadd(
// SOFTMAX: hivm.hir.vreduce <max> {{.*}} unsigned_src = false reduce_dims = [1]
// GEMM: func.func @gemm(
// GEMM: hivm.hir.mmadL1
// MIX: func.func @gemm_relu_mix_aic(
// MIX: func.func @gemm_relu_mix_aiv(
