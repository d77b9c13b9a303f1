// Fast tier: test_examples.py stands in (every example simulated clean and equal to the
// reference).
// UNSUPPORTED: fast-tier
// Every example kernel through the first compile pipeline: ascend-sim compiles a
// tile-level file with ascend-compile (barrier-all sync, program order), simulates all
// blocks, and compares the outputs with the reference interpreter.

// RUN: ascend-sim %examples/vecadd.mlir --json | filecheck %s
// RUN: ascend-sim %examples/softmax.mlir --json | filecheck %s
// RUN: ascend-sim %examples/gemm.mlir --json | filecheck %s
// RUN: ascend-sim %examples/gemm_910b.mlir --json | filecheck %s
// RUN: ascend-sim %examples/gemm_relu.mlir --json | filecheck %s

// CHECK: "races": [], "deadlock": false, "unbalanced_flags": [], "reference_match": true
// CHECK-SAME: "ok": true
