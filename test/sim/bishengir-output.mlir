// ascend-sim judges bishengir-compile's own output: its last hivm dump of our examples
// (Inputs/bishengir, kept as bishengir printed them: dlti target spec, custom-form
// memref.cast, affine.apply, set_mask_norm, NZ cube buffers, mmadL1 sync_related_args)
// simulates without race, deadlock or leftover flag. The grid is a launch parameter,
// not in the IR: --grid gives it.

// RUN: ascend-sim %S/Inputs/bishengir/vecadd.910b.mlir --chip ascend910b --grid 8 --json | filecheck %s
// RUN: ascend-sim %S/Inputs/bishengir/softmax.910b.mlir --chip ascend910b --grid 4 --json | filecheck %s
// RUN: ascend-sim %S/Inputs/bishengir/gemm_910b.910b.mlir --chip ascend910b --grid 4 --json | filecheck %s
// RUN: ascend-sim %S/Inputs/bishengir/gemm_relu_910b.910b.mlir --chip ascend910b --grid 4 --json | filecheck %s --check-prefixes=CHECK,MIX
// CHECK: "races": [], "deadlock": false, "unbalanced_flags": []
// CHECK-SAME: "double_sets": []
// MIX-SAME: "cores": ["cube", "vec0"]
// CHECK-SAME: "ok": true

// bishengir's pipe_barrier[<PIPE_V>] are necessary (same-pipe rule): without them, a race.
// RUN: grep -v 'pipe_barrier\[<PIPE_V>\]' %S/Inputs/bishengir/softmax.910b.mlir | not ascend-sim - --chip ascend910b --json | filecheck %s --check-prefix=NOVBAR
// NOVBAR: "races": [{"kind": "write-read", {{.*}}"first": {"op": "vreduce"{{.*}}"second": {"op": "vbrc"
// NOVBAR-SAME: "ok": false
