// A row loop whose ub buffers and flags take two versions (r mod 2: a flag set in row r is
// waited in row r + 2) around a nested loop of min(r, m) trips: the state at the end of a
// row holds the row before it, so verify-sync checks every three consecutive counts
// (test_verify_sync_sequences.py).
builtin.module {
  func.func @rows(%x: memref<?xf32, #hivm.address_space<gm>>, %z: memref<?xf32, #hivm.address_space<gm>>, %n: index, %m: index) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c256 = arith.constant 256 : index
    %vb = arith.constant 1024 : i64
    %zb = arith.constant 4096 : i64
    %c2i = arith.constant 2 : i64
    %c4i = arith.constant 4 : i64
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
    scf.for %r = %c0 to %n step %c1 {
      %v = arith.remui %r, %c2 : index
      %ev = arith.index_cast %v : index to i64
      %xo = arith.muli %ev, %vb : i64
      %zo = arith.addi %xo, %zb : i64
      %e2 = arith.addi %ev, %c2i : i64
      %e4 = arith.addi %ev, %c4i : i64
      %ux = hivm.hir.pointer_cast(%xo) : memref<256xf32, #hivm.address_space<ub>>
      %uz = hivm.hir.pointer_cast(%zo) : memref<256xf32, #hivm.address_space<ub>>
      %off = arith.muli %r, %c256 : index
      %xs = memref.subview %x[%off] [256] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %zs = memref.subview %z[%off] [256] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, %ev]
      hivm.hir.load ins(%xs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, %e2]
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, %e2]
      hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, %ev]
      %cnt = arith.minsi %r, %m : index
      scf.for %j = %c0 to %cnt step %c1 {
        hivm.hir.pipe_barrier[<PIPE_V>]
        hivm.hir.vadd ins(%ux, %ux : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%uz : memref<256xf32, #hivm.address_space<ub>>)
      }
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vadd ins(%ux, %ux : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%uz : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, %ev]
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, %e4]
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, %e4]
      hivm.hir.store ins(%uz : memref<256xf32, #hivm.address_space<ub>>) outs(%zs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
      hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, %ev]
    }
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    func.return
  }
}
