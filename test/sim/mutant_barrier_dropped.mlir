// RUN: not ascend-sim %s --json | filecheck %s
// Mutant of barrier_synced.mlir: the pipe_barrier[PIPE_MTE3] between the two stores to
// the same GM bytes is dropped; MTE3 ops may overlap, so the final z is undefined.
// CHECK: "races": [{"kind": "write-write", "memory": "gm %z", "first": {"op": "store", "loc": "{{[^"]*}}mutant_barrier_dropped.mlir:17:5", "core": "vec"}, "second": {"op": "store", "loc": "{{[^"]*}}mutant_barrier_dropped.mlir:19:5", "core": "vec"}
// CHECK-SAME: "deadlock": false
// CHECK-SAME: "ok": false
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
    // (pipe_barrier[<PIPE_MTE3>] dropped here)
    hivm.hir.store ins(%ub : memref<256xf16, #hivm.address_space<ub>>) outs(%z : memref<256xf16, #hivm.address_space<gm>>)
    return
  }
}
