// RUN: ascend-opt %s -p ascend-insert-sync | filecheck %s
// RUN: ascend-opt %s -p ascend-insert-sync,ascend-verify-sync > %t.mlir
// RUN: ascend-sim %t.mlir --json --perturb 3 --bind m=5 --bind n=0 --bind x=5x0 --bind y=5x0 | filecheck %s --check-prefix=SIM
// RUN: ascend-sim %t.mlir --json --perturb 3 --bind m=21 --bind n=19 --bind x=21x19 --bind y=21x19 | filecheck %s --check-prefix=SIM

// zero-trip-nested-loop.mlir's kernel with a nested loop that runs at least once
// (max(ceil(min(r + 1, n) / 16), 1) trips, so at n = 0 it touches no column of x but
// its tile of 0 columns): the static bound of its upper bound says so, and one pass of
// its body orders each pipe's ops before the loop before the other pipes' ops after it
// (MTE2's wait before V's set through the loop's MTE2 -> V flag, V's wait before
// MTE2's set through its primed V -> MTE2 flag, and so for MTE3). The outer loop's
// carried flags need no credit: the nested loop's primes come right before it.

// CHECK:      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID2>]
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
// CHECK-NEXT: scf.for %t
// CHECK:      } {ascend.loop
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID2>]

// SIM: "races": []
// SIM-SAME: "deadlock": false
// SIM-SAME: "unbalanced_flags": []
// SIM-SAME: "double_sets": []
// SIM-SAME: "ok": true
module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  func.func @at_least_once(%x: memref<?x?xf32, #hivm.address_space<gm>>, %y: memref<?x?xf32, #hivm.address_space<gm>>, %m: index, %n: index) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>, ascend.grid = 2 : i64} {
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
      %q = arith.divui %4, %c16 : index
      %5 = arith.maxsi %q, %c1 : index
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
