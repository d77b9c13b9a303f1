// The two kernels the scheduler benchmark adds to its problem set: a flash-attention
// forward K/V loop (bench/scheduler/kernels/flash_attn_fwd.mlir; 23 tasks: two matmuls,
// fixpipe and vector -> L1 hand-offs, online-softmax recurrences) and a fused matmul +
// SwiGLU epilogue loop reading three L1 operands (bench/scheduler/kernels/matmul_epilogue3.mlir, whose
// hand-synced form is beside it). Both compile, simulate clean against the
// reference, and get a proven II.
// RUN: ascend-opt %project/bench/scheduler/kernels/flash_attn_fwd.mlir -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule{ii-only=true} 2>&1 | filecheck %s --check-prefix=FA
// RUN: ascend-opt %project/bench/scheduler/kernels/matmul_epilogue3.mlir -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule{ii-only=true} 2>&1 | filecheck %s --check-prefix=EPI
// RUN: ascend-sim %project/bench/scheduler/kernels/flash_attn_fwd.mlir | filecheck %s --check-prefix=SIM
// RUN: ascend-sim %project/bench/scheduler/kernels/matmul_epilogue3.mlir | filecheck %s --check-prefix=SIM
// FA-COUNT-2: hivm.hir.mmadL1
// FA: ascend.ii = 1400 : i64, ascend.mii = 1400 : i64, ascend.status = "optimal"
// EPI: ascend.ii = 1472 : i64, ascend.mii = 1472 : i64, ascend.status = "optimal"
// SIM-NOT: race
// SIM: OK
