// A row loop with two sibling nested loops of runtime counts f(r) = (r + 1 + m) mod 2 and
// g(r) = min(r, m). Row r's first loop stores to row r + 1 of %w (MTE3); row r + 1
// loads that row (MTE2) between its two loops. The MTE3 -> MTE2 pair before the load
// orders the store of the row before; each nested loop's own MTE3 -> MTE2 pair orders it
// too, but only when the loop runs. Without the pair before the load (the mutant of
// test_verify_sync_sequences.py) the store of row r and the load of row r + 1 are ordered
// by neither when f(r) > 0, g(r) = 0 and f(r + 1) = 0: only runs that vary both loops'
// counts together meet it (rows 0 and 1 at an even m: f = 1, g = 0, then f = 0).
builtin.module {
  func.func @sibling_rows(%w: memref<?xf32, #hivm.address_space<gm>>, %n: index, %m: index) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c256 = arith.constant 256 : index
    %cb = arith.constant 0 : i64
    %db = arith.constant 1024 : i64
    %uc = hivm.hir.pointer_cast(%cb) : memref<256xf32, #hivm.address_space<ub>>
    %ud = hivm.hir.pointer_cast(%db) : memref<256xf32, #hivm.address_space<ub>>
    %first = memref.subview %w[0] [256] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1]>, #hivm.address_space<gm>>
    hivm.hir.load ins(%first : memref<256xf32, strided<[1]>, #hivm.address_space<gm>>) outs(%uc : memref<256xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    scf.for %r = %c0 to %n step %c1 {
      %r1 = arith.addi %r, %c1 : index
      %next = arith.muli %r1, %c256 : index
      %this = arith.muli %r, %c256 : index
      %out = memref.subview %w[%next] [256] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %in = memref.subview %w[%this] [256] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %rm = arith.addi %r1, %m : index
      %f = arith.remui %rm, %c2 : index
      scf.for %j = %c0 to %f step %c1 {
        hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID1>]
        hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID1>]
        hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID1>]
        hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID1>]
        hivm.hir.store ins(%uc : memref<256xf32, #hivm.address_space<ub>>) outs(%out : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
      }
      hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
      hivm.hir.pipe_barrier[<PIPE_MTE2>]
      hivm.hir.load ins(%in : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ud : memref<256xf32, #hivm.address_space<ub>>)
      %g = arith.minsi %r, %m : index
      scf.for %j = %c0 to %g step %c1 {
        hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID2>]
        hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID2>]
        hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID2>]
        hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID2>]
      }
    }
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    func.return
  }
}
