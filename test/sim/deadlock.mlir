// RUN: not ascend-sim %s --json | filecheck %s
// A deliberately deadlocking program: V waits for MTE2 before it signals MTE2, and MTE2
// waits for V before it signals V. Both waits are reported; the run stops.
// CHECK: "deadlock": true
// CHECK-SAME: "deadlock_info": ["wait_flag at {{[^"]*}}deadlock.mlir:14:5 [vec] waits for flag V->MTE2 event 2 that is never set", "wait_flag at {{[^"]*}}deadlock.mlir:16:5 [vec] waits for flag MTE2->V event 3 that is never set"]
// CHECK-SAME: "ok": false
module {
  func.func @cycle(%x: memref<64xf32, #hivm.address_space<gm>>, %z: memref<64xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1000 = arith.constant 1000 : index
    %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID2>]
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID3>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID3>]
    scf.for %i = %c0 to %c1000 step %c1 {
      hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
    }
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID2>]
    return
  }
}
