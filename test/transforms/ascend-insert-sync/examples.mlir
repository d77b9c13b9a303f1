// Every example through ascend-compile with sync=solver (ascend-insert-sync), judged by
// the oracle under perturbed latencies: no race, no deadlock, no double set, no flag left
// set at exit.

// Fast tier: test_examples.py stands in (every example compiled with the default
// sync=solver and simulated with --perturb 2 on its first blocks).
// UNSUPPORTED: fast-tier
// RUN: ascend-opt %examples/vecadd.mlir -p 'ascend-compile{sync=solver}' > %t.vecadd.mlir
// RUN: ascend-sim %t.vecadd.mlir --json --perturb 5 | filecheck %s
// RUN: ascend-opt %examples/softmax.mlir -p 'ascend-compile{sync=solver}' > %t.softmax.mlir
// RUN: ascend-sim %t.softmax.mlir --json --perturb 5 | filecheck %s
// RUN: ascend-opt %examples/gemm.mlir -p 'ascend-compile{sync=solver}' > %t.gemm.mlir
// RUN: ascend-sim %t.gemm.mlir --json --perturb 5 | filecheck %s
// RUN: ascend-opt %examples/gemm_910b.mlir -p 'ascend-compile{sync=solver}' > %t.gemm_910b.mlir
// RUN: ascend-sim %t.gemm_910b.mlir --json --perturb 5 | filecheck %s
// RUN: ascend-opt %examples/gemm_relu.mlir -p 'ascend-compile{sync=solver}' > %t.gemm_relu.mlir
// RUN: ascend-sim %t.gemm_relu.mlir --json --perturb 5 | filecheck %s
// RUN: ascend-opt %t.gemm.mlir -p ascend-insert-sync | diff %t.gemm.mlir -
// idempotent on these compiled kernels too (gemm_relu: its split cube and vector halves;
// not flash_attention, whose vector half is ordered through the cube core, which a
// second run on the split function cannot see)
// RUN: ascend-opt %t.vecadd.mlir -p ascend-insert-sync | diff %t.vecadd.mlir -
// RUN: ascend-opt %t.softmax.mlir -p ascend-insert-sync | diff %t.softmax.mlir -
// RUN: ascend-opt %t.gemm_910b.mlir -p ascend-insert-sync | diff %t.gemm_910b.mlir -
// RUN: ascend-opt %t.gemm_relu.mlir -p ascend-insert-sync | diff %t.gemm_relu.mlir -
// flash attention: 18 cross-core flags, ids per direction (no fallback to barrier sync)
// RUN: ascend-opt %examples/flash_attention.mlir -p 'ascend-compile{sync=solver}' 2>&1 >%t.fa.mlir | filecheck %s --check-prefix=FA-REMARKS
// RUN: filecheck %s --input-file=%t.fa.mlir --check-prefix=FA
// RUN: ascend-sim %t.fa.mlir --json --perturb 5 | filecheck %s
// FA-REMARKS-NOT: falls back
// FA: hivm.hir.sync_block_set
// FA: hivm.hir.set_flag

// CHECK: "races": []
// CHECK-SAME: "deadlock": false
// CHECK-SAME: "unbalanced_flags": []
// CHECK-SAME: "double_sets": []
// CHECK-SAME: "ok": true
