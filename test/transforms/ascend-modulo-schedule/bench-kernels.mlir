// Fast tier: the other ascend-modulo-schedule tests (gemm-example.mlir: a cube loop's II) and
// test_examples.py's flash_attention (compiled, perturbed) stand in.
// UNSUPPORTED: fast-tier
// The two kernels the scheduler benchmark adds to its problem set: a flash-attention
// forward K/V loop (bench/scheduler/kernels/flash_attn_fwd.mlir; 23 tasks: two matmuls,
// fixpipe and vector -> L1 hand-offs, online-softmax recurrences) and a fused matmul +
// SwiGLU epilogue loop reading three L1 operands (bench/scheduler/kernels/matmul_epilogue3.mlir, whose
// hand-synced form is beside it). Both compile, simulate clean against the
// reference, and get a proven II.
// RUN: ascend-opt %project/bench/scheduler/kernels/flash_attn_fwd.mlir -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule{ii-only=true} 2>&1 | filecheck %s --check-prefix=FA
// RUN: ascend-opt %project/bench/scheduler/kernels/matmul_epilogue3.mlir -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule{ii-only=true} 2>&1 | filecheck %s --check-prefix=EPI
// flash attention gets the solver sync (its cross-core flag ids are reused by lifetime,
// per direction) and simulates clean under perturbation too.
// RUN: ascend-opt %project/bench/scheduler/kernels/flash_attn_fwd.mlir -p ascend-compile 2>&1 >%t.fa.mlir | filecheck %s --check-prefix=NO-FALLBACK
// RUN: ascend-sim %t.fa.mlir --perturb 5 | filecheck %s --check-prefix=SIMP
// RUN: ascend-sim %project/bench/scheduler/kernels/matmul_epilogue3.mlir | filecheck %s --check-prefix=SIM
// FA-COUNT-2: hivm.hir.mmadL1
// FA: ascend.loop = #ascend.loop<ii = 1400, mii = 1400, status = "optimal"
// EPI: ascend.loop = #ascend.loop<ii = 1472, mii = 1472, status = "optimal"
// NO-FALLBACK-NOT: falls back
// SIMP-NOT: race (
// SIMP: perturb: 5 runs {{.*}}: identical outputs, no race
// SIMP-NEXT: OK
// SIM-NOT: race
// SIM: OK
