// Fast tier: sim/via-bishengir.mlir stands in (the same route on the 910B build).
// UNSUPPORTED: fast-tier
// REQUIRES: bishengir-a5
// ascend-sim --via bishengir on the Ascend 950: bishengir-compile-a5 1.2.0 synchronises
// and plans our vector kernels; its last hivm dump carries `hivm.vf_mode` on the function
// and `hivm.hir.set_ctrl` control-register writes (no-ops for the simulator: no memory
// effect, no mode its numerics model). vecadd, softmax and rmsnorm run race-free under
// the 950's same-pipe rule (V ordered) and equal the reference. rmsnorm's dump collapses
// a strided column view (memref<16x1xf32, strided<[8, 1]>> into memref<16xf32,
// strided<[8]>>) and reads it back through extract_strided_metadata and reinterpret_cast:
// the simulator takes both as MLIR defines them (test_sim_reshape.py).

// RUN: ascend-sim %examples/vecadd.mlir --via bishengir --chip ascend950 --json | filecheck %s
// RUN: ascend-sim %examples/softmax.mlir --via bishengir --chip ascend950 --json | filecheck %s
// RUN: ascend-sim %examples/rmsnorm.mlir --via bishengir --chip ascend950 --json | filecheck %s
// CHECK: "races": [], "deadlock": false, "unbalanced_flags": [], "reference_match": true
// CHECK-SAME: "uninitialized_reads": []
// CHECK-SAME: "ok": true
