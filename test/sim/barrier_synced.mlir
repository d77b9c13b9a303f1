// RUN: ascend-sim %s --json --perturb 3 | filecheck %s
// Two stores (MTE3) write the same GM bytes; MTE3 may overlap its own ops, so the second
// store must wait for the first with pipe_barrier[PIPE_MTE3]. z ends equal to y.
// CHECK: "races": []
// CHECK-SAME: "deadlock": false
// CHECK-SAME: "ok": true
module {
  func.func @store_twice(%x: memref<256xf16, #hivm.address_space<gm>>, %y: memref<256xf16, #hivm.address_space<gm>>,
                         %z: memref<256xf16, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %ua = memref.alloc() : memref<256xf16, #hivm.address_space<ub>>
    %ub = memref.alloc() : memref<256xf16, #hivm.address_space<ub>>
    hivm.hir.load ins(%x : memref<256xf16, #hivm.address_space<gm>>) outs(%ua : memref<256xf16, #hivm.address_space<ub>>)
    hivm.hir.load ins(%y : memref<256xf16, #hivm.address_space<gm>>) outs(%ub : memref<256xf16, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.store ins(%ua : memref<256xf16, #hivm.address_space<ub>>) outs(%z : memref<256xf16, #hivm.address_space<gm>>)
    hivm.hir.pipe_barrier[<PIPE_MTE3>]
    hivm.hir.store ins(%ub : memref<256xf16, #hivm.address_space<ub>>) outs(%z : memref<256xf16, #hivm.address_space<gm>>)
    return
  }
}
