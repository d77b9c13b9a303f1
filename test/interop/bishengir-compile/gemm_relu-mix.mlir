// The MIX example (matmul on the cube core, relu on the vector core, cc -> ub fixpipe
// of Ascend 950) with our cross-core flags (ascend-insert-barrier-sync{intra-core=false})
// split by split-mix-kernel into the _mix_aic/_mix_aiv pair is accepted by
// bishengir-compile (stops at the missing `hivmc`, which is expected).
// Without the FFTS base address argument bishengir aborts on sync_block_set. The a5
// build asserts on cube kernels, so this runs the default build (its own target):
// it checks the MIX structure, not 950 capacities.
// bishengir-compile 1.2.0 reads heap bytes in front of each mmadL1 (mmadl1-heap-ub.mlir):
// with its pass threads about 1 run in 30 of this module crashed (CI saw one), so the
// run gets zeros there from the zero-guard allocator, as own-plan-cube-mix.mlir does.
// REQUIRES: bishengir, zero-guard
// RUN: rm -rf %t && mkdir -p %t
// RUN: ascend-opt %examples/gemm_relu.mlir -p 'convert-tile-to-hivm,ascend-insert-barrier-sync{intra-core=false},peel-mmad-init,hoist-constants,split-mix-kernel' -t npuir -o %t/gemm_relu.npuir.mlir
// RUN: env LD_PRELOAD=%zero_guard %bishengir_compile %t/gemm_relu.npuir.mlir -o %t/gemm_relu.o --disable-hivm-tensor-compile=true --save-temps=%t/temps > %t/log 2>&1 || true
// RUN: filecheck %s --check-prefix=LOG --input-file %t/log
// RUN: test -f %t/temps/module.hivm.opt.mlir
// RUN: filecheck %s --input-file %t/temps/module.hivm.opt.mlir

// LOG: Cannot find hivmc
// LOG-NOT: Stack dump
// CHECK-DAG: func.func @gemm_relu_mix_aic(
// CHECK-DAG: func.func @gemm_relu_mix_aiv(
// CHECK-DAG: hivm.hir.sync_block_set
// CHECK-DAG: hivm.hir.sync_block_wait
