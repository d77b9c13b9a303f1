// A row loop over %n whose nested loop runs f(r) = min(r, m) times, and in it a loop of
// g(j) = min(j, m) trips: a varying runtime loop nested in another varying runtime loop
// (docs/runtime-shapes.md, "Not covered"). Row r's innermost loop stores to row r + 1 of
// %w (MTE3); the MTE3 -> MTE2 pair before row r + 1's load orders it. verify-sync varies
// each nested loop while the other keeps one count, which cannot prove every joint
// sequence: the kernel is reported not verified, naming the two loops
// (test_verify_sync_sequences.py; its mutant without the pair of id 0 is refused).
builtin.module {
  func.func @nested_varying(%w: memref<?xf32, #hivm.address_space<gm>>, %n: index, %m: index) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
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
      %f = arith.subi %m, %r : index
      scf.for %j = %c0 to %f step %c1 {
        %g = arith.minsi %j, %m : index
        scf.for %k = %c0 to %g step %c1 {
          hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID1>]
          hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID1>]
          hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID1>]
          hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID1>]
          hivm.hir.store ins(%uc : memref<256xf32, #hivm.address_space<ub>>) outs(%out : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
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
