// RUN: not ascend-opt %s -p ascend-verify-sync 2>&1 | filecheck %s
// RUN: not ascend-opt %s -p ascend-compile -t npuir 2>&1 | filecheck %s --check-prefix=COMPILE
// Mutant of ascend-insert-sync's output: the drain after the loop waits EVENT_ID2 instead of EVENT_ID0: nothing sets it (deadlock).
// CHECK: event-swapped.mlir:66:5: error: 'hivm.hir.wait_flag' op ascend-verify-sync: hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID2>] waits for a flag no earlier set raises (deadlock)
// ascend-compile takes synced input as it is (no schedule, no sync passes) but checks its
// sync all the same: the mutant printed npuir with a remark that sync was skipped.
// COMPILE: remark: ascend-compile: the input is already synced: schedule and sync passes skipped, its sync checked by ascend-verify-sync
// COMPILE: event-swapped.mlir:66:5: error: 'hivm.hir.wait_flag' op ascend-verify-sync: {{.*}} (deadlock)
// COMPILE-NOT: func.func

builtin.module {
  func.func @vadd_db(%x: memref<1024xf32, #hivm.address_space<gm>>, %y: memref<1024xf32, #hivm.address_space<gm>>, %z: memref<1024xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %version_bytes = arith.constant 1024 : i64
    %y_base = arith.constant 2048 : i64
    %z_base = arith.constant 4096 : i64
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
    scf.for %i = %c0 to %c4 step %c1 {
      %0 = arith.constant 2 : index
      %1 = arith.remui %i, %0 : index
      %2 = arith.index_cast %1 : index to i64
      %3 = arith.constant 2 : index
      %4 = arith.remui %i, %3 : index
      %5 = arith.index_cast %4 : index to i64
      %6 = arith.constant 2 : index
      %7 = arith.remui %i, %6 : index
      %8 = arith.index_cast %7 : index to i64
      %9 = arith.constant 2 : index
      %10 = arith.remui %i, %9 : index
      %11 = arith.index_cast %10 : index to i64
      %v = arith.remui %i, %c2 : index
      %ev = arith.index_cast %v : index to i64
      %x_off = arith.muli %ev, %version_bytes : i64
      %y_off = arith.addi %x_off, %y_base : i64
      %z_off = arith.addi %x_off, %z_base : i64
      %ux = hivm.hir.pointer_cast(%x_off) : memref<256xf32, #hivm.address_space<ub>>
      %uy = hivm.hir.pointer_cast(%y_off) : memref<256xf32, #hivm.address_space<ub>>
      %uz = hivm.hir.pointer_cast(%z_off) : memref<256xf32, #hivm.address_space<ub>>
      %off = arith.muli %i, %c256 : index
      %xs = memref.subview %x[%off] [256] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %ys = memref.subview %y[%off] [256] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %zs = memref.subview %z[%off] [256] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, %5]
      hivm.hir.load ins(%xs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.load ins(%ys : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%uy : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, %11]
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, %11]
      hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, %2]
      hivm.hir.vadd ins(%ux, %uy : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%uz : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, %5]
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, %8]
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, %8]
      hivm.hir.store ins(%uz : memref<256xf32, #hivm.address_space<ub>>) outs(%zs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
      hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, %2]
    }
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID2>]
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    func.return
  }
}

