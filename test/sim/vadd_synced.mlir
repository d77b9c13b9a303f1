// RUN: ascend-sim %s --json | filecheck %s
// A hand-synced vector kernel: two tiles per block, each loaded (MTE2), added (V) and
// stored (MTE3), ordered by set_flag/wait_flag; the buffers are reused across the two
// iterations, so the next load also waits for the previous add (V -> MTE2) and the next
// add for the previous store (MTE3 -> V).
// CHECK: "races": []
// CHECK-SAME: "deadlock": false
// CHECK-SAME: "unbalanced_flags": []
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
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
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
