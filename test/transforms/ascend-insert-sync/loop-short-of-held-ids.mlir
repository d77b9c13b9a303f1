// RUN: ascend-opt %s -p ascend-insert-sync 2>&1 | filecheck %s
// RUN: ascend-opt %s -p ascend-insert-sync 2>/dev/null > %t.mlir
// RUN: ascend-opt %t.mlir -p ascend-verify-sync
// RUN: ascend-sim %t.mlir --json --perturb 3 | filecheck %s --check-prefix=SIM

// A load before the loop whose vabs comes after it: its MTE2 -> V flag would hold an id
// over the whole loop. The loop's four load -> vabs flags cycle through two ids each (8,
// all the chip has). The loop's flags choose their ids first (a flag of the loop without
// one is a barrier in every pass; this one's, a barrier once), so the function body's
// flag falls back to one pipe_barrier[<PIPE_ALL>] after the loop, and the remark says
// which flags hold the ids. (Before, the loop's last flag fell back, inside the loop:
// "loop span.i: MTE2 -> V needs 8 event ids live at once, the chip has 8, function span's
// flags hold id 0".)

// CHECK: remark: ascend-insert-sync: function span: MTE2 -> V needs 1 event id live at once, the chip has 8, loop span.i's flags hold ids 0-7; pipe_barrier[<PIPE_ALL>] instead
// CHECK: scf.for
// CHECK-NOT: pipe_barrier
// CHECK: }
// CHECK: hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT: hivm.hir.vabs

// SIM: "races": []
// SIM-SAME: "ok": true

module {
  func.func @span(%x: memref<1024xf32, #hivm.address_space<gm>>, %z: memref<1024xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %version_bytes = arith.constant 256 : i64
    %ow = arith.constant 16384 : i64
    %pw = arith.constant 16640 : i64
    %w = hivm.hir.pointer_cast(%ow) : memref<64xf32, #hivm.address_space<ub>>
    %wv = hivm.hir.pointer_cast(%pw) : memref<64xf32, #hivm.address_space<ub>>
    %xw = memref.subview %x[960] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: 960>, #hivm.address_space<gm>>
    hivm.hir.load ins(%xw : memref<64xf32, strided<[1], offset: 960>, #hivm.address_space<gm>>) outs(%w : memref<64xf32, #hivm.address_space<ub>>)
    scf.for %i = %c0 to %c8 step %c1 {
      %ver = arith.remui %i, %c2 : index
      %ev = arith.index_cast %ver : index to i64
      %off_v = arith.muli %ev, %version_bytes : i64
      %off = arith.muli %i, %c64 : index
      %xb0 = arith.constant 0 : i64
      %zb0 = arith.constant 4096 : i64
      %xo0 = arith.addi %off_v, %xb0 : i64
      %zo0 = arith.addi %off_v, %zb0 : i64
      %ux0 = hivm.hir.pointer_cast(%xo0) : memref<64xf32, #hivm.address_space<ub>>
      %uz0 = hivm.hir.pointer_cast(%zo0) : memref<64xf32, #hivm.address_space<ub>>
      %xs0 = memref.subview %x[%off] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs0 : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux0 : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs ins(%ux0 : memref<64xf32, #hivm.address_space<ub>>) outs(%uz0 : memref<64xf32, #hivm.address_space<ub>>)
      %xb1 = arith.constant 512 : i64
      %zb1 = arith.constant 4608 : i64
      %xo1 = arith.addi %off_v, %xb1 : i64
      %zo1 = arith.addi %off_v, %zb1 : i64
      %ux1 = hivm.hir.pointer_cast(%xo1) : memref<64xf32, #hivm.address_space<ub>>
      %uz1 = hivm.hir.pointer_cast(%zo1) : memref<64xf32, #hivm.address_space<ub>>
      %xs1 = memref.subview %x[%off] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs1 : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux1 : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs ins(%ux1 : memref<64xf32, #hivm.address_space<ub>>) outs(%uz1 : memref<64xf32, #hivm.address_space<ub>>)
      %xb2 = arith.constant 1024 : i64
      %zb2 = arith.constant 5120 : i64
      %xo2 = arith.addi %off_v, %xb2 : i64
      %zo2 = arith.addi %off_v, %zb2 : i64
      %ux2 = hivm.hir.pointer_cast(%xo2) : memref<64xf32, #hivm.address_space<ub>>
      %uz2 = hivm.hir.pointer_cast(%zo2) : memref<64xf32, #hivm.address_space<ub>>
      %xs2 = memref.subview %x[%off] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs2 : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux2 : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs ins(%ux2 : memref<64xf32, #hivm.address_space<ub>>) outs(%uz2 : memref<64xf32, #hivm.address_space<ub>>)
      %xb3 = arith.constant 1536 : i64
      %zb3 = arith.constant 5632 : i64
      %xo3 = arith.addi %off_v, %xb3 : i64
      %zo3 = arith.addi %off_v, %zb3 : i64
      %ux3 = hivm.hir.pointer_cast(%xo3) : memref<64xf32, #hivm.address_space<ub>>
      %uz3 = hivm.hir.pointer_cast(%zo3) : memref<64xf32, #hivm.address_space<ub>>
      %xs3 = memref.subview %x[%off] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs3 : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux3 : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs ins(%ux3 : memref<64xf32, #hivm.address_space<ub>>) outs(%uz3 : memref<64xf32, #hivm.address_space<ub>>)
    }
    hivm.hir.vabs ins(%w : memref<64xf32, #hivm.address_space<ub>>) outs(%wv : memref<64xf32, #hivm.address_space<ub>>)
    return
  }
}

