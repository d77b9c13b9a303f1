// Fast tier: insert-sync's tests that run ascend-verify-sync on their output
// (out-of-events.mlir, cross-core-reuse.mlir) stand in for accepting a synced kernel.
// UNSUPPORTED: fast-tier
// The checker accepts correctly synced kernels: the oracle's hand-synced ones, and
// every example synced by ascend-insert-sync (sync=solver) or ascend-insert-barrier-sync.

// RUN: ascend-opt %S/../../sim/double_buffer_synced.mlir -p ascend-verify-sync
// RUN: ascend-opt %S/../../sim/mix_dual_synced.mlir -p ascend-verify-sync
// RUN: ascend-opt %S/../../sim/examples/vecadd.hivm.mlir -p ascend-verify-sync
// RUN: ascend-opt %S/../../sim/examples/gemm_relu.hivm.mlir -p ascend-verify-sync
// RUN: ascend-opt %examples/vecadd.mlir -p 'ascend-compile{sync=solver},ascend-verify-sync'
// RUN: ascend-opt %examples/softmax.mlir -p 'ascend-compile{sync=solver},ascend-verify-sync'
// RUN: ascend-opt %examples/gemm.mlir -p 'ascend-compile{sync=solver},ascend-verify-sync'
// RUN: ascend-opt %examples/gemm_910b.mlir -p 'ascend-compile{sync=solver},ascend-verify-sync'
// RUN: ascend-opt %examples/gemm_relu.mlir -p 'ascend-compile{sync=solver},ascend-verify-sync'
// RUN: ascend-opt %examples/gemm_relu.mlir -p 'ascend-compile,ascend-verify-sync'
// RUN: ascend-opt %examples/softmax.mlir -p 'ascend-compile,ascend-verify-sync'
