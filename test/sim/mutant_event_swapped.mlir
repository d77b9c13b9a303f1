// RUN: not ascend-sim %s --json | filecheck %s
// Mutant of vadd_synced.mlir: the MTE2 -> V set_flag uses EVENT_ID1 while its wait_flag
// waits for EVENT_ID0. The wait is never satisfied: the simulator reports the deadlock
// with the waiting op (and stops; it never hangs).
// CHECK: "races": []
// CHECK-SAME: "deadlock": true
// CHECK-SAME: "unbalanced_flags": [{{.*}}"block 0: flag MTE2->V event 1 [vec] still set at exit"
// CHECK-SAME: "deadlock_info": ["block 0: wait_flag at {{[^"]*}}mutant_event_swapped.mlir:37:7 [vec] waits for flag MTE2->V event 0 that is never set"
// CHECK-SAME: "ok": false
module {
  func.func @vadd(%x: memref<2048xf32, #hivm.address_space<gm>>, %y: memref<2048xf32, #hivm.address_space<gm>>,
                  %z: memref<2048xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, ascend.grid = 2 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c512 = arith.constant 512 : index
    %c1024 = arith.constant 1024 : index
    %b64 = hivm.hir.get_block_idx -> i64
    %b = arith.index_cast %b64 : i64 to index
    %base = arith.muli %b, %c1024 : index
    %ux = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
    %uy = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
    %uz = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    scf.for %i = %c0 to %c2 step %c1 {
      %t = arith.muli %i, %c512 : index
      %off = arith.addi %base, %t : index
      %xs = memref.subview %x[%off] [512] [1] : memref<2048xf32, #hivm.address_space<gm>> to memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %ys = memref.subview %y[%off] [512] [1] : memref<2048xf32, #hivm.address_space<gm>> to memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %zs = memref.subview %z[%off] [512] [1] : memref<2048xf32, #hivm.address_space<gm>> to memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.load ins(%xs : memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux : memref<512xf32, #hivm.address_space<ub>>)
      hivm.hir.load ins(%ys : memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%uy : memref<512xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID1>]
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.vadd ins(%ux, %uy : memref<512xf32, #hivm.address_space<ub>>, memref<512xf32, #hivm.address_space<ub>>) outs(%uz : memref<512xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
      hivm.hir.store ins(%uz : memref<512xf32, #hivm.address_space<ub>>) outs(%zs : memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
      hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    }
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    return
  }
}
