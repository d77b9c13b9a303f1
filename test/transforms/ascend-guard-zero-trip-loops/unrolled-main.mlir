// RUN: ascend-opt %s -p ascend-guard-zero-trip-loops | filecheck %s
// RUN: ascend-opt %s -p ascend-guard-zero-trip-loops,ascend-verify-sync | filecheck %s --check-prefix=VERIFIED
// RUN: ascend-opt %s -p ascend-guard-zero-trip-loops | ascend-sim - --bind n=4096 --perturb 2 -q --json | filecheck %s --check-prefix=SIM
// RUN: ascend-opt %s -p ascend-guard-zero-trip-loops | ascend-sim - --bind n=0 -q --json | filecheck %s --check-prefix=SIM
// RUN: ascend-opt %s -p ascend-guard-zero-trip-loops | ascend-sim - --bind n=20000 --perturb 2 -q --json | filecheck %s --check-prefix=SIM
// vecadd_dyn as ascend-insert-sync leaves it (unrolled by 2: a main loop of floor(N / 2)
// passes and a remainder loop). The main loop runs 0 times at one tile per block
// (n = 4096); it is wrapped with its primes, its drains, the flags between it and the
// remainder and the PIPE_ALL under `lb < ub`; the remainder's primes (whose waits are in
// the remainder) move after the guard. The result verifies and runs race-free.
// CHECK:      %[[RUNS:.*]] = arith.cmpi slt, %1, %unrolled_ub : index
// CHECK-NEXT: scf.if %[[RUNS]] {
// CHECK-NEXT:   hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
// CHECK-NEXT:   hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT:   scf.for %t = %1 to %unrolled_ub step %c16 {
// CHECK:        hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID1>]
// CHECK:        hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
// CHECK-NEXT:   hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT: }
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
// CHECK-NEXT: scf.for %t_2 = %unrolled_ub to %tiles step %c8 {
// VERIFIED: scf.if
// SIM: "races": []
// SIM-SAME: "deadlock": false
builtin.module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  func.func @vecadd_dyn(%x: memref<?xf32, #hivm.address_space<gm>>, %y: memref<?xf32, #hivm.address_space<gm>>, %z: memref<?xf32, #hivm.address_space<gm>>, %n: index) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>, ascend.grid = 8 : i64} {
    %c8 = arith.constant 8 : index
    %c511 = arith.constant 511 : index
    %c512 = arith.constant 512 : index
    %c0_i64 = arith.constant 0 : i64
    %c2048_i64 = arith.constant 2048 : i64
    %c4096_i64 = arith.constant 4096 : i64
    %c6144_i64 = arith.constant 6144 : i64
    %c8192_i64 = arith.constant 8192 : i64
    %c10240_i64 = arith.constant 10240 : i64
    %c0 = arith.constant 0 : index
    %c7 = arith.constant 7 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %ux = hivm.hir.pointer_cast(%c0_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<512xf32, #hivm.address_space<ub>>
    %ux_u0 = hivm.hir.pointer_cast(%c0_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<512xf32, #hivm.address_space<ub>>
    %ux_u1 = hivm.hir.pointer_cast(%c2048_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<512xf32, #hivm.address_space<ub>>
    %uy = hivm.hir.pointer_cast(%c2048_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<512xf32, #hivm.address_space<ub>>
    %uy_u0 = hivm.hir.pointer_cast(%c4096_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<512xf32, #hivm.address_space<ub>>
    %uy_u1 = hivm.hir.pointer_cast(%c6144_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<512xf32, #hivm.address_space<ub>>
    %uz_u0 = hivm.hir.pointer_cast(%c8192_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<512xf32, #hivm.address_space<ub>>
    %uz_u1 = hivm.hir.pointer_cast(%c10240_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<512xf32, #hivm.address_space<ub>>
    %0 = arith.addi %n, %c511 : index
    %tiles = arith.divui %0, %c512 : index
    %block_i64 = hivm.hir.get_block_idx {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 0, start = 0>} -> i64
    %1 = arith.index_cast %block_i64 : i64 to index
    %2 = arith.subi %tiles, %1 : index
    %3 = arith.maxsi %2, %c0 : index
    %4 = arith.addi %3, %c7 : index
    %5 = arith.divui %4, %c8 : index
    %6 = arith.divui %5, %c2 : index
    %7 = arith.muli %6, %c16 : index
    %unrolled_ub = arith.addi %1, %7 : index
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    scf.for %t = %1 to %unrolled_ub step %c16 {
      %off = arith.muli %t, %c512 : index
      %8 = arith.subi %n, %off : index
      %size = arith.minsi %8, %c512 : index
      %9 = memref.subview %x[%off] [%size] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %10 = memref.subview %ux_u0[0] [%size] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
      hivm.hir.load ins(%9 : memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%10 : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 111, ii = 21, stage = 0, start = 32>}
      %11 = memref.subview %y[%off] [%size] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %12 = memref.subview %uy_u0[0] [%size] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      hivm.hir.load ins(%11 : memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%12 : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 111, ii = 21, stage = 0, start = 53>}
      %t_1 = arith.addi %t, %c8 : index
      %off_1 = arith.muli %t_1, %c512 : index
      %13 = arith.subi %n, %off_1 : index
      %size_1 = arith.minsi %13, %c512 : index
      %14 = memref.subview %x[%off_1] [%size_1] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %15 = memref.subview %ux_u1[0] [%size_1] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      hivm.hir.load ins(%14 : memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%15 : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 111, ii = 21, stage = 0, start = 74>}
      %16 = memref.subview %y[%off_1] [%size_1] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %17 = memref.subview %uy_u1[0] [%size_1] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      hivm.hir.load ins(%16 : memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%17 : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 111, ii = 21, stage = 0, start = 95>}
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
      %18 = memref.subview %ux_u0[0] [%size] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      %19 = memref.subview %uy_u0[0] [%size] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      %20 = memref.subview %uz_u0[0] [%size] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.vadd {ascend.task = #ascend.task<latency = 16, ii = 16, stage = 1, start = 332>} ins(%18, %19 : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>, memref<?xf32, strided<[1]>, #hivm.address_space<ub>>) outs(%20 : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>)
      %21 = memref.subview %ux_u1[0] [%size_1] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      %22 = memref.subview %uy_u1[0] [%size_1] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      %23 = memref.subview %uz_u1[0] [%size_1] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      hivm.hir.vadd {ascend.task = #ascend.task<latency = 16, ii = 16, stage = 1, start = 348>} ins(%21, %22 : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>, memref<?xf32, strided<[1]>, #hivm.address_space<ub>>) outs(%23 : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
      %24 = memref.subview %uz_u0[0] [%size] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      %25 = memref.subview %z[%off] [%size] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
      hivm.hir.store ins(%24 : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>) outs(%25 : memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) {ascend.task = #ascend.task<latency = 198, ii = 18, stage = 1, start = 448>}
      %26 = memref.subview %uz_u1[0] [%size_1] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      %27 = memref.subview %z[%off_1] [%size_1] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.store ins(%26 : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>) outs(%27 : memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) {ascend.task = #ascend.task<latency = 198, ii = 18, stage = 1, start = 466>}
      hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    } {ascend.loop = #ascend.loop<ii = 332, mii = 235, status = "optimal", res_mii = {MTE2 = 174, MTE3 = 216, V = 32}, rec_mii = 235, binding = "recurrence">, ascend.num_stages = 1 : i64, ascend.drains = #ascend.drains<(MTE2, 448, 90), (MTE3, 484, 180)>, ascend.unroll = 2 : i64}
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID1>]
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.pipe_barrier[<PIPE_MTE2>]
    hivm.hir.pipe_barrier[<PIPE_MTE3>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID1>]
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
    scf.for %t_2 = %unrolled_ub to %tiles step %c8 {
      %28 = arith.subi %t_2, %unrolled_ub : index
      %29 = arith.divui %28, %c8 : index
      %30 = arith.remui %29, %c2 : index
      %31 = arith.index_cast %30 : index to i64
      %32 = arith.subi %t_2, %unrolled_ub : index
      %33 = arith.divui %32, %c8 : index
      %34 = arith.remui %33, %c2 : index
      %35 = arith.index_cast %34 : index to i64
      %off_2 = arith.muli %t_2, %c512 : index
      %36 = arith.subi %n, %off_2 : index
      %size_2 = arith.minsi %36, %c512 : index
      %37 = memref.subview %x[%off_2] [%size_2] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %38 = memref.subview %ux[0] [%size_2] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.load ins(%37 : memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%38 : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 111, ii = 21, stage = 0, start = 0>}
      %39 = memref.subview %y[%off_2] [%size_2] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %40 = memref.subview %uy[0] [%size_2] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      hivm.hir.load ins(%39 : memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%40 : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 111, ii = 21, stage = 0, start = 21>}
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
      %41 = memref.subview %ux[0] [%size_2] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      %42 = memref.subview %uy[0] [%size_2] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      %43 = arith.subi %t_2, %unrolled_ub : index
      %44 = arith.divui %43, %c8 : index
      %ver = arith.remui %44, %c2 : index
      %45 = arith.index_cast %ver : index to i64
      %46 = arith.muli %45, %c2048_i64 : i64
      %47 = arith.addi %46, %c4096_i64 : i64
      %uz_v = hivm.hir.pointer_cast(%47) : memref<512xf32, #hivm.address_space<ub>>
      %48 = memref.subview %uz_v[0] [%size_2] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, %31]
      hivm.hir.vadd {ascend.task = #ascend.task<latency = 16, ii = 16, stage = 0, start = 132>} ins(%41, %42 : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>, memref<?xf32, strided<[1]>, #hivm.address_space<ub>>) outs(%48 : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, %35]
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
      %49 = memref.subview %uz_v[0] [%size_2] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      %50 = memref.subview %z[%off_2] [%size_2] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, %35]
      hivm.hir.store ins(%49 : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>) outs(%50 : memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) {ascend.task = #ascend.task<latency = 198, ii = 18, stage = 0, start = 148>}
      hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, %31]
    } {ascend.loop = #ascend.loop<ii = 198, mii = 198, status = "optimal", res_mii = {MTE2 = 132, MTE3 = 198, V = 16}, rec_mii = 107, binding = "MTE3">, ascend.num_stages = 2 : i64, ascend.drains = #ascend.drains<(MTE2, 42, 90), (MTE3, 166, 180)>}
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    func.return
  }
}

