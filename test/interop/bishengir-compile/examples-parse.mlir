// Every example's npuir, in the default build's syntax, parses and verifies in
// bishengir-opt (1.2.0).
// REQUIRES: bishengir
// RUN: ascend-opt %examples/vecadd.mlir -p 'convert-tile-to-hivm,ascend-insert-barrier-sync{intra-core=false},peel-mmad-init,hoist-constants,split-mix-kernel' -t 'npuir{syntax=default}' | %bishengir_opt | filecheck %s --check-prefix=VECADD
// RUN: ascend-opt %examples/softmax.mlir -p 'convert-tile-to-hivm,ascend-insert-barrier-sync{intra-core=false},peel-mmad-init,hoist-constants,split-mix-kernel' -t 'npuir{syntax=default}' | %bishengir_opt | filecheck %s --check-prefix=SOFTMAX
// RUN: ascend-opt %examples/gemm.mlir -p 'convert-tile-to-hivm,ascend-insert-barrier-sync{intra-core=false},peel-mmad-init,hoist-constants,split-mix-kernel' -t 'npuir{syntax=default}' | %bishengir_opt | filecheck %s --check-prefix=GEMM
// RUN: ascend-opt %examples/gemm_910b.mlir -p 'convert-tile-to-hivm,ascend-insert-barrier-sync{intra-core=false},peel-mmad-init,hoist-constants,split-mix-kernel' -t 'npuir{syntax=default}' | %bishengir_opt | filecheck %s --check-prefix=GEMM910B
// RUN: ascend-opt %examples/gemm_relu.mlir -p 'convert-tile-to-hivm,ascend-insert-barrier-sync{intra-core=false},peel-mmad-init,hoist-constants,split-mix-kernel' -t 'npuir{syntax=default}' | %bishengir_opt | filecheck %s --check-prefix=MIX

// VECADD: func.func @vecadd(
// VECADD: hivm.hir.vadd
// SOFTMAX: func.func @softmax(
// SOFTMAX: hivm.hir.vreduce <max>
// SOFTMAX: hivm.hir.vbrc
// SOFTMAX: hivm.hir.vexp
// GEMM: func.func @gemm(
// GEMM: hivm.hir.mmadL1
// GEMM910B: func.func @gemm_910b(
// GEMM910B: hivm.hir.mmadL1
// MIX: hivm.module_core_type = #hivm.module_core_type<MIX>
// MIX: func.func @gemm_relu_mix_aic(
// MIX: hivm.hir.sync_block_set
// MIX: func.func @gemm_relu_mix_aiv(
// MIX: hivm.hir.sync_block_wait
