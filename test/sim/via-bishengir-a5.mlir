// REQUIRES: bishengir-a5
// ascend-sim --via bishengir on the Ascend 950: bishengir-compile-a5 1.2.0 synchronises
// and plans our vector kernels; its last hivm dump carries `hivm.vf_mode` on the function
// and `hivm.hir.set_ctrl` control-register writes (no-ops for the simulator: no memory
// effect, no mode its numerics model). vecadd and softmax run race-free under the 950's
// same-pipe rule (V ordered) and equal the reference; rmsnorm stops at a located refusal
// naming the op the simulator does not take.

// RUN: ascend-sim %examples/vecadd.mlir --via bishengir --chip ascend950 --json | filecheck %s
// RUN: ascend-sim %examples/softmax.mlir --via bishengir --chip ascend950 --json | filecheck %s
// CHECK: "races": [], "deadlock": false, "unbalanced_flags": [], "reference_match": true
// CHECK-SAME: "uninitialized_reads": []
// CHECK-SAME: "ok": true

// RUN: not ascend-sim %examples/rmsnorm.mlir --via bishengir --chip ascend950 2>&1 | filecheck %s --check-prefix=REFUSED
// REFUSED: rmsnorm.mlir (bishengir dump after {{.*}}):{{[0-9]+}}:{{[0-9]+}}: error: 'memref.collapse_shape' op reshaping a non-contiguous memref is not simulated
