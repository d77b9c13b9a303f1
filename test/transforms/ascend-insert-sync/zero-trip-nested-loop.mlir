// RUN: ascend-opt %s -p ascend-insert-sync | filecheck %s
// RUN: ascend-opt %s -p ascend-insert-sync,ascend-verify-sync > %t.mlir
// RUN: ascend-sim %t.mlir --json --perturb 3 --bind m=5 --bind n=0 --bind x=5x0 --bind y=5x0 | filecheck %s --check-prefix=SIM
// RUN: ascend-sim %t.mlir --json --perturb 3 --bind m=21 --bind n=19 --bind x=21x19 --bind y=21x19 | filecheck %s --check-prefix=SIM
// RUN: ascend-opt %t.mlir -p ascend-insert-sync > %t.2.mlir
// RUN: diff %t.mlir %t.2.mlir

// A triangular loop (the rows' column loop runs ceil(min(r + 1, n) / 16) times: 0 in
// every row when n = 0). The outer loop's four carried flags are set after the nested
// loop and waited before it. Two of them are ordered for every trip count by the nested
// loop's primes and drains (V's wait before MTE2's set through the primed V -> MTE2 flag,
// MTE3's wait before V's set through the primed MTE3 -> V flags: with 0 trips the drain
// consumes the prime). The other two are ordered only by the nested loop's own flags
// when it runs: with 0 trips V could set V -> MTE2 again before MTE2 consumed it (and
// MTE3 likewise MTE3 -> V). Each gets a credit the other way round around the nested
// loop: set right after the flag's wait (after the loop's primes), waited right after
// the loop (before its drains and the flags' sets). verify-sync proves the result for
// every trip count; the oracle runs it at n = 0 and at counts that change from row to
// row. nested-loop-runs-once.mlir is the same kernel with a nested loop that runs at
// least once: no credit there.

// CHECK:      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID2>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID2>]
// the nested loop's primes
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
// the two credits: V waited MTE3 -> V before MTE3 sets it again, MTE2 waited V -> MTE2
// before V sets it again
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID3>]
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID1>]
// CHECK-NEXT: scf.for %t
// CHECK:      } {ascend.loop
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID1>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID3>]
// the nested loop's drains, then the carried flags' sets
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID2>]
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID2>]
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT: }

// SIM: "races": []
// SIM-SAME: "deadlock": false
// SIM-SAME: "unbalanced_flags": []
// SIM-SAME: "double_sets": []
// SIM-SAME: "ok": true
module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  func.func @triangle(%x: memref<?x?xf32, #hivm.address_space<gm>>, %y: memref<?x?xf32, #hivm.address_space<gm>>, %m: index, %n: index) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>, ascend.grid = 2 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %cst = arith.constant 2.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %c64_i64 = arith.constant 64 : i64
    %ux = hivm.hir.pointer_cast(%c0_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x16xf32, #hivm.address_space<ub>>
    %block_i64 = hivm.hir.get_block_idx {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 0, start = 0>} -> i64
    %0 = arith.index_cast %block_i64 : i64 to index
    scf.for %r = %0 to %m step %c2 {
      %1 = arith.addi %r, %c1 : index
      %2 = arith.minsi %1, %n : index
      %3 = arith.addi %2, %c16 : index
      %4 = arith.subi %3, %c1 : index
      %5 = arith.divui %4, %c16 : index
      scf.for %t = %c0 to %5 step %c1 {
        %c0_1 = arith.muli %t, %c16 : index
        %6 = arith.subi %2, %c0_1 : index
        %cols = arith.minsi %6, %c16 : index
        %7 = memref.subview %x[%r, %c0_1] [1, %cols] [1, 1] : memref<?x?xf32, #hivm.address_space<gm>> to memref<1x?xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
        %8 = memref.subview %ux[0, 0] [1, %cols] [1, 1] : memref<1x16xf32, #hivm.address_space<ub>> to memref<1x?xf32, strided<[16, 1]>, #hivm.address_space<ub>>
        hivm.hir.load ins(%7 : memref<1x?xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>) outs(%8 : memref<1x?xf32, strided<[16, 1]>, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 91, ii = 13, stage = 0, start = 0>}
        %9 = memref.subview %ux[0, 0] [1, %cols] [1, 1] : memref<1x16xf32, #hivm.address_space<ub>> to memref<1x?xf32, strided<[16, 1]>, #hivm.address_space<ub>>
        %ver = arith.remui %t, %c2 : index
        %10 = arith.index_cast %ver : index to i64
        %11 = arith.muli %10, %c64_i64 : i64
        %12 = arith.addi %11, %c64_i64 : i64
        %uy_v = hivm.hir.pointer_cast(%12) : memref<1x16xf32, #hivm.address_space<ub>>
        %13 = memref.subview %uy_v[0, 0] [1, %cols] [1, 1] : memref<1x16xf32, #hivm.address_space<ub>> to memref<1x?xf32, strided<[16, 1]>, #hivm.address_space<ub>>
        hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 0, start = 91>} ins(%9, %cst : memref<1x?xf32, strided<[16, 1]>, #hivm.address_space<ub>>, f32) outs(%13 : memref<1x?xf32, strided<[16, 1]>, #hivm.address_space<ub>>)
        %14 = memref.subview %uy_v[0, 0] [1, %cols] [1, 1] : memref<1x16xf32, #hivm.address_space<ub>> to memref<1x?xf32, strided<[16, 1]>, #hivm.address_space<ub>>
        %15 = memref.subview %y[%r, %c0_1] [1, %cols] [1, 1] : memref<?x?xf32, #hivm.address_space<gm>> to memref<1x?xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
        hivm.hir.store ins(%14 : memref<1x?xf32, strided<[16, 1]>, #hivm.address_space<ub>>) outs(%15 : memref<1x?xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>) {ascend.task = #ascend.task<latency = 181, ii = 10, stage = 0, start = 92>}
      } {ascend.loop = #ascend.loop<ii = 181, mii = 181, status = "optimal", res_mii = {MTE2 = 91, MTE3 = 181, V = 1}, rec_mii = 181, binding = "MTE3">, ascend.num_stages = 2 : i64, ascend.drains = #ascend.drains<(MTE2, 13, 78), (MTE3, 102, 171)>}
    } {ascend.num_stages = 1 : i64, ascend.loop = #ascend.loop<ii = 273, mii = 273, status = "optimal", res_mii = {MTE2 = 181, MTE3 = 181, V = 181}, rec_mii = 273, binding = "recurrence">, ascend.task = #ascend.task<latency = 273, ii = 273, stage = 0, start = 0>}
    func.return
  }
}
