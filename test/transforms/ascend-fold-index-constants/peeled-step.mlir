// RUN: ascend-opt %s -p ascend-fold-index-constants | filecheck %s
// RUN: ascend-opt %s -p ascend-fold-index-constants,ascend-verify-sync | ascend-sim - -q --json | filecheck %s --check-prefix=SIM
// A peeled first step (the loop variable a constant, 0) computes its buffer version's
// address and its event id from constants: four scalar cycles before the first load.
// Folded they are constants, which cost the scalar unit nothing; the loop's own
// arithmetic of its variable stays. (Simulated: 1127 cycles before, 1123 after.)
// CHECK:       %c256_i64 = arith.constant 256 : i64
// CHECK-NEXT:  %[[A:.*]] = arith.constant 0 : i64
// CHECK-NEXT:  %buf_v = hivm.hir.pointer_cast(%[[A]])
// CHECK:       hivm.hir.load
// CHECK-NEXT:  %[[ID:.*]] = arith.constant 0 : i64
// CHECK-NEXT:  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, %[[ID]]]
// CHECK:       scf.for %i = %c1 to %c4 step %c1 {
// CHECK-NEXT:    %{{.*}} = arith.remui %i, %c2 : index
// CHECK-NOT:   arith.remui %c
// SIM: "races": []
// SIM-SAME: "deadlock": false
builtin.module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  func.func @peeled(%x: memref<4x64xf32, #hivm.address_space<gm>>, %y: memref<4x64xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c0_i64 = arith.constant 0 : i64
    %c256_i64 = arith.constant 256 : i64
    %ver = arith.remui %c0, %c2 : index
    %v64 = arith.index_cast %ver : index to i64
    %off = arith.muli %v64, %c256_i64 : i64
    %addr = arith.addi %off, %c0_i64 : i64
    %buf_v = hivm.hir.pointer_cast(%addr) : memref<1x64xf32, #hivm.address_space<ub>>
    %x0 = memref.subview %x[%c0, 0] [1, 64] [1, 1] : memref<4x64xf32, #hivm.address_space<gm>> to memref<1x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>
    %y0 = memref.subview %y[%c0, 0] [1, 64] [1, 1] : memref<4x64xf32, #hivm.address_space<gm>> to memref<1x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.load ins(%x0 : memref<1x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>) outs(%buf_v : memref<1x64xf32, #hivm.address_space<ub>>)
    %idx = arith.remui %c0, %c2 : index
    %id = arith.index_cast %idx : index to i64
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, %id]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE3>, %id]
    hivm.hir.store ins(%buf_v : memref<1x64xf32, #hivm.address_space<ub>>) outs(%y0 : memref<1x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>)
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
    scf.for %i = %c1 to %c4 step %c1 {
      %ver_1 = arith.remui %i, %c2 : index
      %v64_1 = arith.index_cast %ver_1 : index to i64
      %off_1 = arith.muli %v64_1, %c256_i64 : i64
      %addr_1 = arith.addi %off_1, %c0_i64 : i64
      %buf_v_1 = hivm.hir.pointer_cast(%addr_1) : memref<1x64xf32, #hivm.address_space<ub>>
      %xi = memref.subview %x[%i, 0] [1, 64] [1, 1] : memref<4x64xf32, #hivm.address_space<gm>> to memref<1x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>
      %yi = memref.subview %y[%i, 0] [1, 64] [1, 1] : memref<4x64xf32, #hivm.address_space<gm>> to memref<1x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.load ins(%xi : memref<1x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>) outs(%buf_v_1 : memref<1x64xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID1>]
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID1>]
      hivm.hir.store ins(%buf_v_1 : memref<1x64xf32, #hivm.address_space<ub>>) outs(%yi : memref<1x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>)
      hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
    }
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    return
  }
}
