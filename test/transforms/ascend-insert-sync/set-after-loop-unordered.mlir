// RUN: ascend-opt %s -p 'ascend-insert-sync{chip-file="%S/Inputs/four-events.toml"}' 2>&1 | filecheck %s
// RUN: ascend-opt %s -p 'ascend-insert-sync{chip-file="%S/Inputs/four-events.toml"}' 2>/dev/null > %t.mlir
// RUN: ascend-opt %t.mlir -p 'ascend-verify-sync{chip-file="%S/Inputs/four-events.toml"}'
// RUN: ascend-sim %t.mlir --json --perturb 3 | filecheck %s --check-prefix=SIM

// Four load -> vabs -> store chains in a loop, whose MTE2 -> V and V -> MTE3 flags hold
// all four ids of each pair, then one more chain after the loop. Its two flags are set
// by ops after the loop, but the pipe that sets each may leave the loop before the wait
// pipe has waited the loop's last set of the same id (MTE2 runs ahead of V, and V of
// MTE3: nothing after the loop orders them). They used to take id 0 anyway, and
// ascend-verify-sync refused the double set (unseen seed 732 on a chip of 3 ids per
// pair, after an unrolled loop). Now a flag of the function body holds its ids over
// the whole body, and shares a loop's only where happens-before proves the loop done
// with them. Here the load's flag finds none free and becomes a barrier before the
// vabs, which also orders the loop's last waits before the vabs's set: the V -> MTE3
// flag then takes id 0.

// CHECK: remark: ascend-insert-sync: function after: MTE2 -> V needs 1 event id live at once, the chip has 4, loop after.i's flags hold ids 0-3; pipe_barrier[<PIPE_ALL>] instead
// CHECK-NOT:  remark
// CHECK:      scf.for
// CHECK:      }
// CHECK-NOT:  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>
// CHECK:      hivm.hir.load
// (the loop's carried MTE3 -> MTE2 flags drained here)
// CHECK-NOT:  set_flag
// CHECK:      hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT: hivm.hir.vabs
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.store
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT: return

// SIM: "races": []
// SIM-SAME: "ok": true

module {
  func.func @after(%x: memref<1024xf32, #hivm.address_space<gm>>, %z: memref<4096xf32, #hivm.address_space<gm>>, %y: memref<64xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %cx0 = arith.constant 0 : i64
    %zc0 = arith.constant 0 : index
    %cx1 = arith.constant 256 : i64
    %zc1 = arith.constant 1024 : index
    %cx2 = arith.constant 512 : i64
    %zc2 = arith.constant 2048 : index
    %cx3 = arith.constant 768 : i64
    %zc3 = arith.constant 3072 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %off = arith.muli %i, %c64 : index
      %ux0 = hivm.hir.pointer_cast(%cx0) : memref<64xf32, #hivm.address_space<ub>>
      %xs0 = memref.subview %x[%off] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs0 : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux0 : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs ins(%ux0 : memref<64xf32, #hivm.address_space<ub>>) outs(%ux0 : memref<64xf32, #hivm.address_space<ub>>)
      %zoff0 = arith.addi %off, %zc0 : index
      %zs0 = memref.subview %z[%zoff0] [64] [1] : memref<4096xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.store ins(%ux0 : memref<64xf32, #hivm.address_space<ub>>) outs(%zs0 : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
      %ux1 = hivm.hir.pointer_cast(%cx1) : memref<64xf32, #hivm.address_space<ub>>
      %xs1 = memref.subview %x[%off] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs1 : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux1 : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs ins(%ux1 : memref<64xf32, #hivm.address_space<ub>>) outs(%ux1 : memref<64xf32, #hivm.address_space<ub>>)
      %zoff1 = arith.addi %off, %zc1 : index
      %zs1 = memref.subview %z[%zoff1] [64] [1] : memref<4096xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.store ins(%ux1 : memref<64xf32, #hivm.address_space<ub>>) outs(%zs1 : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
      %ux2 = hivm.hir.pointer_cast(%cx2) : memref<64xf32, #hivm.address_space<ub>>
      %xs2 = memref.subview %x[%off] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs2 : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux2 : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs ins(%ux2 : memref<64xf32, #hivm.address_space<ub>>) outs(%ux2 : memref<64xf32, #hivm.address_space<ub>>)
      %zoff2 = arith.addi %off, %zc2 : index
      %zs2 = memref.subview %z[%zoff2] [64] [1] : memref<4096xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.store ins(%ux2 : memref<64xf32, #hivm.address_space<ub>>) outs(%zs2 : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
      %ux3 = hivm.hir.pointer_cast(%cx3) : memref<64xf32, #hivm.address_space<ub>>
      %xs3 = memref.subview %x[%off] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs3 : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux3 : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs ins(%ux3 : memref<64xf32, #hivm.address_space<ub>>) outs(%ux3 : memref<64xf32, #hivm.address_space<ub>>)
      %zoff3 = arith.addi %off, %zc3 : index
      %zs3 = memref.subview %z[%zoff3] [64] [1] : memref<4096xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.store ins(%ux3 : memref<64xf32, #hivm.address_space<ub>>) outs(%zs3 : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
    }
    %pw = arith.constant 4096 : i64
    %w = hivm.hir.pointer_cast(%pw) : memref<64xf32, #hivm.address_space<ub>>
    %xw = memref.subview %x[%c0] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.load ins(%xw : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%w : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vabs ins(%w : memref<64xf32, #hivm.address_space<ub>>) outs(%w : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%w : memref<64xf32, #hivm.address_space<ub>>) outs(%y : memref<64xf32, #hivm.address_space<gm>>)
    return
  }
}
