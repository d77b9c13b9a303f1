// RUN: ascend-sim %s --json | filecheck %s
// What bishengir-compile-a5 emits around a 950 vector kernel: `hivm.vf_mode` on the
// function and `hivm.hir.set_ctrl` control-register writes at its entry and before its
// return. The simulator runs set_ctrl as a scalar-unit no-op (no memory effect, no
// modelled mode): the kernel simulates race-free, every byte it reads written first.
// CHECK: "races": [], "deadlock": false, "unbalanced_flags": []
// CHECK-SAME: "uninitialized_reads": []
// CHECK-SAME: "ok": true
module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  func.func @k(%x: memref<512xf32, #hivm.address_space<gm>>, %y: memref<512xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.vf_mode = #hivm.vf_mode<SIMD>} {
    %c0_i64 = arith.constant 0 : i64
    %c2048_i64 = arith.constant 2048 : i64
    hivm.hir.set_ctrl false at ctrl[60]
    hivm.hir.set_ctrl true at ctrl[48]
    %u = hivm.hir.pointer_cast(%c0_i64) : memref<512xf32, #hivm.address_space<ub>>
    %v = hivm.hir.pointer_cast(%c2048_i64) : memref<512xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%x : memref<512xf32, #hivm.address_space<gm>>) outs(%u : memref<512xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.vexp ins(%u : memref<512xf32, #hivm.address_space<ub>>) outs(%v : memref<512xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.store ins(%v : memref<512xf32, #hivm.address_space<ub>>) outs(%y : memref<512xf32, #hivm.address_space<gm>>)
    hivm.hir.set_ctrl true at ctrl[60]
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    return
  }
}
