// The hand-synced hivm form of every example kernel (test/sim/examples, the oracle's
// calibration: precise set_flag/wait_flag written by hand) simulates without race,
// deadlock, double set or unbalanced flag, over the whole grid. Their outputs are
// compared with the reference interpreter in test/python/test_hand_synced_examples.py.

// RUN: ascend-sim %S/examples/vecadd.hivm.mlir --json | filecheck %s
// RUN: ascend-sim %S/examples/softmax.hivm.mlir --json | filecheck %s
// RUN: ascend-sim %S/examples/gemm.hivm.mlir --json | filecheck %s
// RUN: ascend-sim %S/examples/gemm_910b.hivm.mlir --json | filecheck %s
// RUN: ascend-sim %S/examples/gemm_relu.hivm.mlir --json | filecheck %s --check-prefixes=CHECK,MIX

// CHECK: "races": [], "deadlock": false, "unbalanced_flags": []
// CHECK-SAME: "double_sets": []
// MIX-SAME: "cores": ["cube", "vec0"]
// CHECK-SAME: "ok": true

// A hand-synced kernel with one flag pair removed is caught:
// RUN: grep -v 'PIPE_MTE2>, <PIPE_V>, <EVENT_ID1>' %S/examples/vecadd.hivm.mlir | not ascend-sim - --json | filecheck %s --check-prefix=MUTANT
// MUTANT: "races": [{"kind": "{{write-read|read-write}}", "memory": "ub %u{{[xy]}}1
// MUTANT-SAME: "ok": false

// Same-pipe rule (chips.needs_barrier): the 910B's V pipe does not order dependent vector
// ops, so there softmax without its pipe_barrier[<PIPE_V>]s races on the UB buffers its
// vector chain passes along; the 950's does (docs/same-pipe-rule.md): no race there.
// RUN: grep -v 'pipe_barrier\[<PIPE_V>\]' %S/examples/softmax.hivm.mlir | not ascend-sim - --chip ascend910b --json --blocks 1 | filecheck %s --check-prefix=NOVBAR
// RUN: grep -v 'pipe_barrier\[<PIPE_V>\]' %S/examples/softmax.hivm.mlir | ascend-sim - --chip ascend950 --json --blocks 1 | filecheck %s --check-prefix=CHECK
// NOVBAR: "races": [{"kind": "write-read", "memory": "ub %row_max of vec", "first": {"op": "vreduce", {{.*}}"core": "vec"}, "second": {"op": "vbrc", {{.*}}"core": "vec"}
// NOVBAR-SAME: "ok": false
