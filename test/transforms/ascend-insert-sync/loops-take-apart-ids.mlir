// RUN: ascend-opt %s -p ascend-insert-sync 2>/dev/null | filecheck %s
// RUN: ascend-opt %s -p ascend-insert-sync,ascend-verify-sync > /dev/null
// RUN: ascend-opt %s -p ascend-insert-sync 2>/dev/null > %t.mlir
// RUN: ascend-sim %t.mlir --json --perturb 3 | filecheck %s --check-prefix=SIM

// anchored-prime-shares-ids.mlir on a chip of 8 event ids per pipe pair: the first loop's
// four V -> MTE2 flags take ids 0-3, and the second loop's flags, allocated from 0 in
// their own loop, took id 0 again, which put a pipe_barrier[<PIPE_ALL>] between the two
// loops: the second loop's loads waited for the first loop's every pipe (a runtime count's
// remainder loop behind its unrolled main loop: narrow seed 4137 on the 910B ran 1747
// cycles at 5 trips against barrier-all's 1703). Now a later loop's ids of a pair move,
// all by one shift, onto ids no flag outside it uses (`_apart_from_other_items`): the
// second loop's V -> MTE2 flag takes id 4, primed right after the first loop's last vabs
// (its anchor), and no barrier stands between the loops.

// CHECK: scf.for %i
// CHECK-COUNT-4: hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID{{[0-3]}}>]
// CHECK: }
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID4>]
// CHECK-NOT: hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK: scf.for %j
// CHECK: hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID4>]
// CHECK: hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID4>]
// CHECK: }
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID4>]
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_ALL>]

// SIM: "races": []
// SIM-SAME: "double_sets": []
// SIM-SAME: "ok": true

module {
  func.func @two_loops(%x: memref<4096xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c256 = arith.constant 256 : index
    %oa0 = arith.constant 0 : i64
    %ob0 = arith.constant 1024 : i64
    %a0 = hivm.hir.pointer_cast(%oa0) : memref<64xf32, #hivm.address_space<ub>>
    %b0 = hivm.hir.pointer_cast(%ob0) : memref<64xf32, #hivm.address_space<ub>>
    %oa1 = arith.constant 256 : i64
    %ob1 = arith.constant 1280 : i64
    %a1 = hivm.hir.pointer_cast(%oa1) : memref<64xf32, #hivm.address_space<ub>>
    %b1 = hivm.hir.pointer_cast(%ob1) : memref<64xf32, #hivm.address_space<ub>>
    %oa2 = arith.constant 512 : i64
    %ob2 = arith.constant 1536 : i64
    %a2 = hivm.hir.pointer_cast(%oa2) : memref<64xf32, #hivm.address_space<ub>>
    %b2 = hivm.hir.pointer_cast(%ob2) : memref<64xf32, #hivm.address_space<ub>>
    %oa3 = arith.constant 768 : i64
    %ob3 = arith.constant 1792 : i64
    %a3 = hivm.hir.pointer_cast(%oa3) : memref<64xf32, #hivm.address_space<ub>>
    %b3 = hivm.hir.pointer_cast(%ob3) : memref<64xf32, #hivm.address_space<ub>>
    scf.for %i = %c0 to %c8 step %c1 {
      %row = arith.muli %i, %c256 : index
      %ck0 = arith.constant 0 : index
      %off0 = arith.addi %row, %ck0 : index
      %xs0 = memref.subview %x[%off0] [64] [1] : memref<4096xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs0 : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%a0 : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs ins(%a0 : memref<64xf32, #hivm.address_space<ub>>) outs(%b0 : memref<64xf32, #hivm.address_space<ub>>)
      %ck1 = arith.constant 64 : index
      %off1 = arith.addi %row, %ck1 : index
      %xs1 = memref.subview %x[%off1] [64] [1] : memref<4096xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs1 : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%a1 : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs ins(%a1 : memref<64xf32, #hivm.address_space<ub>>) outs(%b1 : memref<64xf32, #hivm.address_space<ub>>)
      %ck2 = arith.constant 128 : index
      %off2 = arith.addi %row, %ck2 : index
      %xs2 = memref.subview %x[%off2] [64] [1] : memref<4096xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs2 : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%a2 : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs ins(%a2 : memref<64xf32, #hivm.address_space<ub>>) outs(%b2 : memref<64xf32, #hivm.address_space<ub>>)
      %ck3 = arith.constant 192 : index
      %off3 = arith.addi %row, %ck3 : index
      %xs3 = memref.subview %x[%off3] [64] [1] : memref<4096xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs3 : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%a3 : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs ins(%a3 : memref<64xf32, #hivm.address_space<ub>>) outs(%b3 : memref<64xf32, #hivm.address_space<ub>>)
    }
    scf.for %j = %c0 to %c8 step %c1 {
      %rowj = arith.muli %j, %c256 : index
      %xj = memref.subview %x[%rowj] [64] [1] : memref<4096xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xj : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%a0 : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs ins(%a0 : memref<64xf32, #hivm.address_space<ub>>) outs(%b0 : memref<64xf32, #hivm.address_space<ub>>)
    }
    return
  }
}
