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

// A kernel bishengir cannot compile for the chip is an error, not a simulation of the
// module it printed before failing:
// RUN: not ascend-sim %examples/gemm.mlir --via bishengir --chip ascend910b 2>&1 | filecheck %s --check-prefix=FAIL
// FAIL: error: bishengir-compile failed in PlanMemory Failed (hivm-plan-memory){{.*}}cc overflow
