// RUN: ascend-opt %s -p ascend-insert-sync | filecheck %s
// RUN: ascend-opt %s -p ascend-insert-sync > %t.mlir
// RUN: ascend-sim %t.mlir --json --perturb 5 | filecheck %s --check-prefix=SIM
// RUN: ascend-opt %t.mlir -p ascend-verify-sync
// RUN: ascend-opt %t.mlir -p ascend-insert-sync > %t.2.mlir
// RUN: diff %t.mlir %t.2.mlir

// A loop ascend-modulo-schedule marked `ascend.barrier_sync` (kept in program order, its
// code replayed faster so: one op at a time, a single chain of one buffer): each hand-off
// between pipes is a pipe_barrier[<PIPE_ALL>] before its consumer instead of a
// set_flag / wait_flag pair, the next load's wait for the store (around the back edge)
// too; nothing is primed or drained. Without the attribute the same loop gets flags
// (the second function). The oracle finds no race under perturbed latencies,
// verify-sync accepts it, and a second run adds nothing.

// CHECK-LABEL: func.func @chain_barriers
// CHECK-NOT:    set_flag
// CHECK:        scf.for %i
// CHECK:          hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:     hivm.hir.load
// CHECK-NEXT:     hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:     hivm.hir.vabs
// CHECK-NEXT:     hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:     hivm.hir.store
// CHECK-NEXT:   } {ascend.barrier_sync}
// CHECK-NEXT:   hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:   func.return
// CHECK-LABEL: func.func @chain_flags
// CHECK:        scf.for %i
// CHECK:          hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>
// CHECK-NEXT:     hivm.hir.load
// CHECK-NEXT:     hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>

// SIM: "races": []
// SIM-SAME: "deadlock": false
// SIM-SAME: "unbalanced_flags": []
// SIM-SAME: "double_sets": []
// SIM-SAME: "ok": true
module {
  func.func @chain_barriers(%x: memref<1024xf32, #hivm.address_space<gm>>, %z: memref<1024xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %base = arith.constant 0 : i64
    scf.for %i = %c0 to %c4 step %c1 {
      %u = hivm.hir.pointer_cast(%base) : memref<256xf32, #hivm.address_space<ub>>
      %off = arith.muli %i, %c256 : index
      %xs = memref.subview %x[%off] [256] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %zs = memref.subview %z[%off] [256] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%u : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs ins(%u : memref<256xf32, #hivm.address_space<ub>>) outs(%u : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.store ins(%u : memref<256xf32, #hivm.address_space<ub>>) outs(%zs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
    } {ascend.barrier_sync}
    return
  }
  func.func @chain_flags(%x: memref<1024xf32, #hivm.address_space<gm>>, %z: memref<1024xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %base = arith.constant 0 : i64
    scf.for %i = %c0 to %c4 step %c1 {
      %u = hivm.hir.pointer_cast(%base) : memref<256xf32, #hivm.address_space<ub>>
      %off = arith.muli %i, %c256 : index
      %xs = memref.subview %x[%off] [256] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %zs = memref.subview %z[%off] [256] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%u : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs ins(%u : memref<256xf32, #hivm.address_space<ub>>) outs(%u : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.store ins(%u : memref<256xf32, #hivm.address_space<ub>>) outs(%zs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
    }
    return
  }
}
