// REQUIRES: bishengir
// ascend-sim --via bishengir: the tile-level kernel is lowered without our sync,
// bishengir-compile synchronises and plans it, and its last hivm dump is simulated over
// the kernel's grid and checked against the reference.

// RUN: ascend-sim %examples/softmax.mlir --via bishengir --chip ascend910b --json | filecheck %s
// RUN: ascend-sim %examples/gemm_910b.mlir --via bishengir --chip ascend910b --json | filecheck %s
// RUN: ascend-sim %S/Inputs/gemm_relu_910b.mlir --via bishengir --chip ascend910b --json | filecheck %s
// CHECK: "races": [], "deadlock": false, "unbalanced_flags": [], "reference_match": true
// CHECK-SAME: "blocks": 4
// CHECK-SAME: "ok": true

// A kernel that does not fit the chip is an error, not a simulation (our capacity check
// stops it before bishengir, whose memory planner would fail on it too):
// RUN: not ascend-sim %examples/gemm.mlir --via bishengir --chip ascend910b 2>&1 | filecheck %s --check-prefix=FAIL
// FAIL: error: {{.*}}229376 bytes, but ascend910b has 131072 bytes of cc
