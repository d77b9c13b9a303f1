// RUN: ascend-opt %s -p ascend-insert-sync 2>&1 | filecheck %s
// RUN: ascend-opt %s -p ascend-insert-sync 2>/dev/null > %t.mlir
// RUN: ascend-opt %t.mlir -p ascend-verify-sync
// RUN: ascend-sim %t.mlir --json --perturb 3 | filecheck %s --check-prefix=SIM

// The loop's last op loads %w, which only the vabs after the loop reads: that MTE2 -> V
// flag of the function body is set right after the loop, so it would hold its id over the
// whole loop (MTE2 may leave the loop before V has waited the loop's last flags). The
// loop's four load -> vabs flags cycle through two ids each (8, all the chip has), so it
// used to fall back to a pipe_barrier[<PIPE_ALL>] ("function after: MTE2 -> V needs 1
// event ids ..., loop after.i's flags hold ids 0-7"). Now a flag back (V -> MTE2) right
// after the loop orders the set after all of the loop's vector work, and the set takes
// id 0, which the loop's flags are then done with. The loop's stores (MTE3 -> MTE2 ids
// are its WAR flags) leave V -> MTE2 ids free for it.

// CHECK-NOT: remark
// CHECK:      scf.for
// CHECK:      }
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
// CHECK-NEXT: arith.constant 16640
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.pointer_cast
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.vabs ins(%w
// CHECK:      hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT: return
// CHECK-NOT:  PIPE_ALL

// SIM: "races": []
// SIM-SAME: "ok": true

module {
  func.func @after(%x: memref<1024xf32, #hivm.address_space<gm>>, %z: memref<4096xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %version_bytes = arith.constant 256 : i64
    %ow = arith.constant 16384 : i64
    %w = hivm.hir.pointer_cast(%ow) : memref<64xf32, #hivm.address_space<ub>>
    scf.for %i = %c0 to %c8 step %c1 {
      %ver = arith.remui %i, %c2 : index
      %ev = arith.index_cast %ver : index to i64
      %off_v = arith.muli %ev, %version_bytes : i64
      %off = arith.muli %i, %c64 : index
      %xb0 = arith.constant 0 : i64
      %xo0 = arith.addi %off_v, %xb0 : i64
      %ux0 = hivm.hir.pointer_cast(%xo0) : memref<64xf32, #hivm.address_space<ub>>
      %xs0 = memref.subview %x[%off] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs0 : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux0 : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs ins(%ux0 : memref<64xf32, #hivm.address_space<ub>>) outs(%ux0 : memref<64xf32, #hivm.address_space<ub>>)
      %zc0 = arith.constant 0 : index
      %zoff0 = arith.addi %off, %zc0 : index
      %zs0 = memref.subview %z[%zoff0] [64] [1] : memref<4096xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.store ins(%ux0 : memref<64xf32, #hivm.address_space<ub>>) outs(%zs0 : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
      %xb1 = arith.constant 512 : i64
      %xo1 = arith.addi %off_v, %xb1 : i64
      %ux1 = hivm.hir.pointer_cast(%xo1) : memref<64xf32, #hivm.address_space<ub>>
      %xs1 = memref.subview %x[%off] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs1 : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux1 : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs ins(%ux1 : memref<64xf32, #hivm.address_space<ub>>) outs(%ux1 : memref<64xf32, #hivm.address_space<ub>>)
      %zc1 = arith.constant 1024 : index
      %zoff1 = arith.addi %off, %zc1 : index
      %zs1 = memref.subview %z[%zoff1] [64] [1] : memref<4096xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.store ins(%ux1 : memref<64xf32, #hivm.address_space<ub>>) outs(%zs1 : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
      %xb2 = arith.constant 1024 : i64
      %xo2 = arith.addi %off_v, %xb2 : i64
      %ux2 = hivm.hir.pointer_cast(%xo2) : memref<64xf32, #hivm.address_space<ub>>
      %xs2 = memref.subview %x[%off] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs2 : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux2 : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs ins(%ux2 : memref<64xf32, #hivm.address_space<ub>>) outs(%ux2 : memref<64xf32, #hivm.address_space<ub>>)
      %zc2 = arith.constant 2048 : index
      %zoff2 = arith.addi %off, %zc2 : index
      %zs2 = memref.subview %z[%zoff2] [64] [1] : memref<4096xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.store ins(%ux2 : memref<64xf32, #hivm.address_space<ub>>) outs(%zs2 : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
      %xb3 = arith.constant 1536 : i64
      %xo3 = arith.addi %off_v, %xb3 : i64
      %ux3 = hivm.hir.pointer_cast(%xo3) : memref<64xf32, #hivm.address_space<ub>>
      %xs3 = memref.subview %x[%off] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs3 : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux3 : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs ins(%ux3 : memref<64xf32, #hivm.address_space<ub>>) outs(%ux3 : memref<64xf32, #hivm.address_space<ub>>)
      %zc3 = arith.constant 3072 : index
      %zoff3 = arith.addi %off, %zc3 : index
      %zs3 = memref.subview %z[%zoff3] [64] [1] : memref<4096xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.store ins(%ux3 : memref<64xf32, #hivm.address_space<ub>>) outs(%zs3 : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
      %xw = memref.subview %x[%off] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xw : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%w : memref<64xf32, #hivm.address_space<ub>>)
    }
    %pw = arith.constant 16640 : i64
    %wv = hivm.hir.pointer_cast(%pw) : memref<64xf32, #hivm.address_space<ub>>
    hivm.hir.vabs ins(%w : memref<64xf32, #hivm.address_space<ub>>) outs(%wv : memref<64xf32, #hivm.address_space<ub>>)
    return
  }
}
