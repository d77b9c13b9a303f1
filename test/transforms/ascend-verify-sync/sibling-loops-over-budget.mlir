// RUN: ascend-opt %s -p ascend-verify-sync 2>&1 | filecheck %s
// Four sibling nested loops of a row loop, each with its own runtime count (min(r, a),
// min(r, b), ...): their counts vary together from row to row, so verify-sync runs every
// ordered pair of tuples of their covering counts, 81 x 81 = 6561 runs, over the budget
// of 4096: the kernel is reported not verified, naming the loops, never passed.
// CHECK: sibling-loops-over-budget.mlir:9:3: remark: ascend-verify-sync: kernel too large to unroll within the budget; not verified (the sequences of 2 trip counts of the nested loops at {{.*}}sibling-loops-over-budget.mlir:17:7 and {{.*}}:21:7 and {{.*}}:25:7 and {{.*}}:29:7 need 6561 runs, over the budget of 4096)

builtin.module {
  func.func @rows(%w: memref<?xf32, #hivm.address_space<gm>>, %n: index, %a: index, %b: index, %c: index, %d: index) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %r = %c0 to %n step %c1 {
      %fa = arith.minsi %r, %a : index
      %fb = arith.minsi %r, %b : index
      %fc = arith.minsi %r, %c : index
      %fd = arith.minsi %r, %d : index
      scf.for %j = %c0 to %fa step %c1 {
        hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
        hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
      }
      scf.for %j = %c0 to %fb step %c1 {
        hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID1>]
        hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID1>]
      }
      scf.for %j = %c0 to %fc step %c1 {
        hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID2>]
        hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID2>]
      }
      scf.for %j = %c0 to %fd step %c1 {
        hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID3>]
        hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID3>]
      }
    }
    func.return
  }
}
