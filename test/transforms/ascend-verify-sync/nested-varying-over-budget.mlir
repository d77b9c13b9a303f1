// RUN: ascend-opt %s -p ascend-verify-sync 2>&1 | filecheck %s
// Four varying runtime loops, each nested in the one before (min(r, a) trips in a row
// loop, then min(i, b), min(j, c), min(k, d)): the four levels vary together, every
// combination of a pair of covering counts per level, (3^4)^2 = 6561 runs, over the
// budget of 4096: the kernel is reported not verified, naming the loops, never passed.
// CHECK: nested-varying-over-budget.mlir:9:3: remark: ascend-verify-sync: kernel too large to unroll within the budget; not verified (the sequences of 2 trip counts of the nested loops at {{.*}}nested-varying-over-budget.mlir:14:7 and {{.*}}:16:9 and {{.*}}:18:11 and {{.*}}:20:13 need 6561 runs, over the budget of 4096)

builtin.module {
  func.func @nest(%w: memref<?xf32, #hivm.address_space<gm>>, %n: index, %a: index, %b: index, %c: index, %d: index) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %r = %c0 to %n step %c1 {
      %fa = arith.minsi %r, %a : index
      scf.for %i = %c0 to %fa step %c1 {
        %fb = arith.minsi %i, %b : index
        scf.for %j = %c0 to %fb step %c1 {
          %fc = arith.minsi %j, %c : index
          scf.for %k = %c0 to %fc step %c1 {
            %fd = arith.minsi %k, %d : index
            scf.for %l = %c0 to %fd step %c1 {
              hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
              hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
            }
          }
        }
      }
    }
    func.return
  }
}
