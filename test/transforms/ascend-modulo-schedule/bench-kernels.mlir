// The two kernels the scheduler benchmark adds to its problem set: a flash-attention
// forward K/V loop (bench/scheduler/kernels/flash_attn_fwd.mlir; 23 tasks: two matmuls,
// fixpipe and vector -> L1 hand-offs, online-softmax recurrences) and a fused matmul +
// SwiGLU epilogue loop reading three L1 operands (bench/scheduler/kernels/matmul_epilogue3.mlir, whose
// hand-synced form is beside it). Both compile, simulate clean against the
// reference, and get a proven II.
// RUN: ascend-opt %project/bench/scheduler/kernels/flash_attn_fwd.mlir -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule{ii-only=true} 2>&1 | filecheck %s --check-prefix=FA
// RUN: ascend-opt %project/bench/scheduler/kernels/matmul_epilogue3.mlir -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule{ii-only=true} 2>&1 | filecheck %s --check-prefix=EPI
// flash attention needs more than 16 cross-core flags under ascend-insert-sync (its
// documented limit), so it is simulated with the barrier-all sync here.
// RUN: ascend-opt %project/bench/scheduler/kernels/flash_attn_fwd.mlir -p 'ascend-compile{sync=barrier-all}' | ascend-sim - | filecheck %s --check-prefix=SIM
// RUN: ascend-sim %project/bench/scheduler/kernels/matmul_epilogue3.mlir | filecheck %s --check-prefix=SIM
// FA-COUNT-2: hivm.hir.mmadL1
// FA: ascend.loop = #ascend.loop<ii = 1400, mii = 1400, status = "optimal"
// EPI: ascend.loop = #ascend.loop<ii = 1472, mii = 1472, status = "optimal"
// SIM-NOT: race
// SIM: OK
