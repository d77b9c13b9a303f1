// A row loop over %n whose nested loop runs f(r) = (r + 1 + m) mod 2 times, and in it a
// loop of g(j) = min(j, m) trips: a varying runtime loop nested in another varying
// runtime loop whose sync bug needs both to vary at once. Each iteration j of row r's
// nested loop stores to row r + 1 of %w (MTE3) after an MTE3 -> MTE2 pair, and the
// innermost loop's iterations each hold an MTE3 -> MTE2 pair; the MTE3 -> MTE2 pair of id 0
// before the row's load orders the store of the row before. Without it (the mutant of
// test_verify_sync_sequences.py) the last store of row r is ordered before row r + 1's
// load of the same row by an innermost iteration after it, or by an iteration of the
// nested loop in row r + 1: neither runs when row r ends with g = 0 and row r + 1 has
// f = 0 (rows 0 and 1 at an even m: f = 1, g(0) = 0, then f = 0). Varying one loop while
// the other keeps a count that runs never meets it; the joint runs do.
builtin.module {
  func.func @nested_varying_joint(%w: memref<?xf32, #hivm.address_space<gm>>, %n: index, %m: index) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
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
        hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID2>]
        hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID2>]
        hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID2>]
        hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID2>]
        hivm.hir.store ins(%uc : memref<256xf32, #hivm.address_space<ub>>) outs(%out : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
        %g = arith.minsi %j, %m : index
        scf.for %k = %c0 to %g step %c1 {
          hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID1>]
          hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID1>]
          hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID1>]
          hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID1>]
        }
      }
      hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
      hivm.hir.pipe_barrier[<PIPE_MTE2>]
      hivm.hir.load ins(%in : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ud : memref<256xf32, #hivm.address_space<ub>>)
    }
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    func.return
  }
}
