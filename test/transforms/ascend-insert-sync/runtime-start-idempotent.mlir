// RUN: ascend-opt %s -p ascend-insert-sync > %t.mlir
// RUN: filecheck %s < %t.mlir
// RUN: ascend-opt %t.mlir -p ascend-verify-sync > /dev/null
// RUN: ascend-opt %t.mlir -p ascend-insert-sync > %t.twice.mlir
// RUN: diff %t.mlir %t.twice.mlir

// ascend-insert-sync is idempotent on a loop whose start is a runtime value (the
// remainder loop after an unrolled one, as in vecadd_dyn): its carried flags take one
// event id per buffer version, computed from the pass count (iv - lb) / step, in which
// the runtime start cancels. A second run reads those ids per pass (the set of pass k
// and the wait of pass k + 2 name the same id) and finds every dependence ordered;
// before, a dynamic id of a loop with an unknown start matched nothing, and the second
// run added two more primed flags per pipe pair.

// CHECK-LABEL: func.func @remainder(
// CHECK-COUNT-2: hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID{{[01]}}>]
// CHECK-COUNT-2: hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID{{[01]}}>]
// CHECK-NOT:     hivm.hir.set_flag
// CHECK:         scf.for %i = %lb to %ub step %c2 {
// CHECK:           hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, %{{.*}}]
// CHECK-NEXT:      hivm.hir.load
// CHECK:           hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, %{{.*}}]
// CHECK-NEXT:      hivm.hir.vadd
// CHECK:           hivm.hir.store
// CHECK-NEXT:      hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, %{{.*}}]
// CHECK-NEXT:    }
module {
  func.func @remainder(%x: memref<4096xf32, #hivm.address_space<gm>>, %z: memref<4096xf32, #hivm.address_space<gm>>, %lb: index, %ub: index)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c2 = arith.constant 2 : index
    %c256 = arith.constant 256 : index
    %version_bytes = arith.constant 1024 : i64
    %z_base = arith.constant 2048 : i64
    scf.for %i = %lb to %ub step %c2 {
      %k = arith.subi %i, %lb : index
      %p = arith.divui %k, %c2 : index
      %v = arith.remui %p, %c2 : index
      %ev = arith.index_cast %v : index to i64
      %x_off = arith.muli %ev, %version_bytes : i64
      %z_off = arith.addi %x_off, %z_base : i64
      %ux = hivm.hir.pointer_cast(%x_off) : memref<256xf32, #hivm.address_space<ub>>
      %uz = hivm.hir.pointer_cast(%z_off) : memref<256xf32, #hivm.address_space<ub>>
      %off = arith.muli %i, %c256 : index
      %xs = memref.subview %x[%off] [256] [1] : memref<4096xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %zs = memref.subview %z[%off] [256] [1] : memref<4096xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.vadd ins(%ux, %ux : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%uz : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.store ins(%uz : memref<256xf32, #hivm.address_space<ub>>) outs(%zs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
    }
    return
  }
}
