// Compiled example kernels keep their outputs and stay race-free when every latency is
// scaled by a random factor in [0.25, 4] (correctness never depends on the estimates).
// RUN: ascend-sim %examples/vecadd.mlir --json --perturb 3 --seed 7 | filecheck %s
// RUN: ascend-sim %examples/gemm_relu.mlir --json --perturb 3 --seed 7 | filecheck %s
// RUN: ascend-sim %S/examples/softmax.hivm.mlir --json --perturb 3 --seed 7 | filecheck %s --check-prefix=HIVM
// CHECK: "races": [], "deadlock": false, "unbalanced_flags": [], "reference_match": true
// CHECK-SAME: "perturb": {"runs": 3, "ok": true, "failures": []
// CHECK-SAME: "ok": true
// HIVM: "races": [], "deadlock": false, "unbalanced_flags": [], "reference_match": null
// HIVM-SAME: "perturb": {"runs": 3, "ok": true, "failures": []
// HIVM-SAME: "ok": true
