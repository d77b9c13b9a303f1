// Fast tier: test_examples.py stands in (gemm_910b, gemm_relu and gemm_bf16 compiled with
// sync=solver and simulated with --perturb 2).
// UNSUPPORTED: fast-tier
// The peeled first K step (peel-mmad-init) sets the K loop's first event itself: the
// dependence of the loop's feed on the peeled mmadL1 (it reads the single-version B tile
// that the loop's first step reloads) is handed to the loop's carried MTE1 -> MTE2 flag,
// whose prime goes right after the peeled mmadL1 instead of the top of the function. The
// loop's first load (the other version of the A tile) then starts without waiting for
// the peeled step's feed; only the B load waits, inside the loop, on that prime.

// RUN: ascend-opt %examples/gemm_910b.mlir -p 'ascend-compile{sync=solver}' > %t.gemm_910b.mlir
// RUN: filecheck %s --input-file=%t.gemm_910b.mlir
// RUN: ascend-sim %t.gemm_910b.mlir --json --perturb 5 | filecheck %s --check-prefix=SIM
// RUN: ascend-sim %t.gemm_910b.mlir --json | %python -c "import json, sys; c = json.load(sys.stdin)['cycles']; assert c <= 4950, c"
// RUN: ascend-opt %t.gemm_910b.mlir -p ascend-verify-sync > /dev/null
// RUN: ascend-opt %examples/gemm_relu.mlir -p 'ascend-compile{sync=solver}' > %t.gemm_relu.mlir
// RUN: ascend-sim %t.gemm_relu.mlir --json --perturb 5 | filecheck %s --check-prefix=SIM
// RUN: ascend-sim %t.gemm_relu.mlir --json | %python -c "import json, sys; c = json.load(sys.stdin)['cycles']; assert c <= 4900, c"
// Inside an outer loop (gemm_bf16: the K loop runs once per output tile) the prime goes
// after the tile's peeled step too, when the previous tile's drain is ordered before it.
// RUN: ascend-opt %examples/gemm_bf16.mlir -p 'ascend-compile{sync=solver}' > %t.gemm_bf16.mlir
// RUN: filecheck %s --input-file=%t.gemm_bf16.mlir --check-prefix=NESTED
// RUN: ascend-sim %t.gemm_bf16.mlir --json --perturb 5 | filecheck %s --check-prefix=SIM
// RUN: ascend-sim %t.gemm_bf16.mlir --json | %python -c "import json, sys; c = json.load(sys.stdin)['cycles']; assert c <= 5800, c"

// CHECK-LABEL: func.func @gemm
// CHECK-NOT:   hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>
// CHECK:       hivm.hir.mmadL1
// CHECK-NEXT:  hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID[[PRIME:[0-9]]]>]
// CHECK-NOT:   hivm.hir.wait_flag
// CHECK:       scf.for
// CHECK:         hivm.hir.nd2nz
// CHECK-NOT:     hivm.hir.nd2nz
// CHECK:         hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID[[PRIME]]>]
// CHECK-NOT:     hivm.hir.wait_flag
// CHECK:         hivm.hir.nd2nz

// NESTED:      scf.for
// NESTED:        hivm.hir.mmadL1
// NESTED-NEXT:   hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID[[PRIME:[0-9]]]>]
// NESTED-NOT:    hivm.hir.wait_flag
// NESTED:        scf.for
// NESTED:          hivm.hir.nd2nz
// NESTED-NOT:      hivm.hir.nd2nz
// NESTED:          hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID[[PRIME]]>]

// SIM: "races": []
// SIM-SAME: "deadlock": false
// SIM-SAME: "unbalanced_flags": []
// SIM-SAME: "double_sets": []
// SIM-SAME: "ok": true
