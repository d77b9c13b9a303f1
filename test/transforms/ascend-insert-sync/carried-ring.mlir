// RUN: ascend-opt %s -p ascend-insert-sync | filecheck %s
// RUN: ascend-opt %s -p ascend-insert-sync > %t.mlir
// RUN: ascend-opt %t.mlir -p ascend-verify-sync > /dev/null
// The pass is idempotent: a second run finds every dependence ordered, also the
// prologue's vadd -> the second pass's load, whose wait takes a version id computed
// from the induction variable (id 1 in pass 2, primed right after the vadd).
// RUN: ascend-opt %t.mlir -p ascend-insert-sync > %t.twice.mlir
// RUN: diff %t.mlir %t.twice.mlir
// RUN: ascend-sim %t.mlir --func skewed --json --perturb 5 | filecheck %s --check-prefix=SIM
// RUN: ascend-sim %t.mlir --func skewed_runtime_trips --bind n=4 --json --perturb 5 | filecheck %s --check-prefix=SIM
// RUN: ascend-sim %t.mlir --func skewed_runtime_trips --bind n=2 --json | filecheck %s --check-prefix=SIM

// A loop pipelined over two stages (as ascend-pipeline-loops writes one): pass i
// finishes tile i - 1 (vmul, store of output version (i - 1) mod 2) before it loads
// and computes tile i into version i mod 2. The store of pass i and the vadd of pass i
// share no byte, but the vadd of pass i + 1 writes the version the store reads: a
// loop-carried MTE3 -> V dependence whose producer comes first in the body. Its flag
// is set after the store of pass k and waited before the vadd of pass k + 1, on a ring
// of two event ids (pass k sets id k mod 2, waits id (k - 1) mod 2): the first pass's
// wait takes the one prime (id 1), the drain after the loop waits the id of the last
// pass, known from the trip count (3 passes: id 0). Waited in its own pass (as before),
// the vector pipe would wait for this pass's store. A loop whose trip count is not
// known keeps that wait in its own pass: the drain would need the count.

// CHECK-LABEL: func.func @skewed(
// CHECK:      hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
// CHECK:      scf.for %i = %c1 to %c4 step %c1 {
// the id the pass waits: ((i - 1) + 1) mod 2
// CHECK:        %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:   %[[SHIFTED:.*]] = arith.addi %{{.*}}, %[[ONE]] : index
// CHECK-NEXT:   %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:   %[[W:.*]] = arith.remui %[[SHIFTED]], %[[TWO]] : index
// CHECK-NEXT:   %[[WAITED:.*]] = arith.index_cast %[[W]] : index to i64
// the id the pass sets: (i - 1) mod 2
// CHECK-NEXT:   %[[K2:.*]] = arith.subi %i, %c1 : index
// CHECK-NEXT:   %[[TWO2:.*]] = arith.constant 2 : index
// CHECK-NEXT:   %[[S:.*]] = arith.remui %[[K2]], %[[TWO2]] : index
// CHECK-NEXT:   %[[SET:.*]] = arith.index_cast %[[S]] : index to i64
// CHECK:        hivm.hir.vmul
// CHECK:        hivm.hir.store
// CHECK-NEXT:   hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, %[[SET]]]
// CHECK-NOT:    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, %[[SET]]]
// CHECK:        hivm.hir.load
// CHECK:        hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, %[[WAITED]]]
// CHECK-NEXT:   hivm.hir.vadd
// CHECK:      }
// CHECK:      hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT: func.return

// CHECK-LABEL: func.func @skewed_runtime_trips(
// CHECK:      scf.for %i = %c1 to %n step %c1 {
// CHECK:        hivm.hir.store
// CHECK-NEXT:   hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
// CHECK:        hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
// CHECK-NEXT:   hivm.hir.vadd
// CHECK:      }

// SIM: "races": []
// SIM-SAME: "deadlock": false
// SIM-SAME: "unbalanced_flags": []
// SIM-SAME: "double_sets": []
// SIM-SAME: "ok": true
module {
  func.func @skewed(%x: memref<1024xf32, #hivm.address_space<gm>>, %z: memref<1024xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %c0_i64 = arith.constant 0 : i64
    %c768 = arith.constant 768 : index
    %version_bytes = arith.constant 1024 : i64
    %z_base = arith.constant 2048 : i64
    %z_last = arith.constant 3072 : i64
    %ux0 = hivm.hir.pointer_cast(%c0_i64) : memref<256xf32, #hivm.address_space<ub>>
    %uz0 = hivm.hir.pointer_cast(%z_base) : memref<256xf32, #hivm.address_space<ub>>
    %xs0 = memref.subview %x[%c0] [256] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.load ins(%xs0 : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux0 : memref<256xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ux0, %ux0 : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%uz0 : memref<256xf32, #hivm.address_space<ub>>)
    scf.for %i = %c1 to %c4 step %c1 {
      %p = arith.subi %i, %c1 : index
      %pv = arith.remui %p, %c2 : index
      %pe = arith.index_cast %pv : index to i64
      %pz = arith.muli %pe, %version_bytes : i64
      %pz_off = arith.addi %pz, %z_base : i64
      %uz_prev = hivm.hir.pointer_cast(%pz_off) : memref<256xf32, #hivm.address_space<ub>>
      %v = arith.remui %i, %c2 : index
      %ev = arith.index_cast %v : index to i64
      %x_off = arith.muli %ev, %version_bytes : i64
      %z_off = arith.addi %x_off, %z_base : i64
      %ux = hivm.hir.pointer_cast(%x_off) : memref<256xf32, #hivm.address_space<ub>>
      %uz = hivm.hir.pointer_cast(%z_off) : memref<256xf32, #hivm.address_space<ub>>
      %poff = arith.muli %p, %c256 : index
      %off = arith.muli %i, %c256 : index
      %zs = memref.subview %z[%poff] [256] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %xs = memref.subview %x[%off] [256] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.vmul ins(%uz_prev, %uz_prev : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%uz_prev : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.store ins(%uz_prev : memref<256xf32, #hivm.address_space<ub>>) outs(%zs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
      hivm.hir.load ins(%xs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.vadd ins(%ux, %ux : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%uz : memref<256xf32, #hivm.address_space<ub>>)
    }
    %uz3 = hivm.hir.pointer_cast(%z_last) : memref<256xf32, #hivm.address_space<ub>>
    %zs3 = memref.subview %z[%c768] [256] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.vmul ins(%uz3, %uz3 : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%uz3 : memref<256xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%uz3 : memref<256xf32, #hivm.address_space<ub>>) outs(%zs3 : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
    return
  }
  func.func @skewed_runtime_trips(%x: memref<1024xf32, #hivm.address_space<gm>>, %z: memref<1024xf32, #hivm.address_space<gm>>, %n: index)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %c0_i64 = arith.constant 0 : i64
    %c768 = arith.constant 768 : index
    %version_bytes = arith.constant 1024 : i64
    %z_base = arith.constant 2048 : i64
    %z_last = arith.constant 3072 : i64
    %ux0 = hivm.hir.pointer_cast(%c0_i64) : memref<256xf32, #hivm.address_space<ub>>
    %uz0 = hivm.hir.pointer_cast(%z_base) : memref<256xf32, #hivm.address_space<ub>>
    %xs0 = memref.subview %x[%c0] [256] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.load ins(%xs0 : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux0 : memref<256xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ux0, %ux0 : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%uz0 : memref<256xf32, #hivm.address_space<ub>>)
    scf.for %i = %c1 to %n step %c1 {
      %p = arith.subi %i, %c1 : index
      %pv = arith.remui %p, %c2 : index
      %pe = arith.index_cast %pv : index to i64
      %pz = arith.muli %pe, %version_bytes : i64
      %pz_off = arith.addi %pz, %z_base : i64
      %uz_prev = hivm.hir.pointer_cast(%pz_off) : memref<256xf32, #hivm.address_space<ub>>
      %v = arith.remui %i, %c2 : index
      %ev = arith.index_cast %v : index to i64
      %x_off = arith.muli %ev, %version_bytes : i64
      %z_off = arith.addi %x_off, %z_base : i64
      %ux = hivm.hir.pointer_cast(%x_off) : memref<256xf32, #hivm.address_space<ub>>
      %uz = hivm.hir.pointer_cast(%z_off) : memref<256xf32, #hivm.address_space<ub>>
      %poff = arith.muli %p, %c256 : index
      %off = arith.muli %i, %c256 : index
      %zs = memref.subview %z[%poff] [256] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %xs = memref.subview %x[%off] [256] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.vmul ins(%uz_prev, %uz_prev : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%uz_prev : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.store ins(%uz_prev : memref<256xf32, #hivm.address_space<ub>>) outs(%zs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
      hivm.hir.load ins(%xs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.vadd ins(%ux, %ux : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%uz : memref<256xf32, #hivm.address_space<ub>>)
    }
    %uz3 = hivm.hir.pointer_cast(%z_last) : memref<256xf32, #hivm.address_space<ub>>
    %zs3 = memref.subview %z[%c768] [256] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.vmul ins(%uz3, %uz3 : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%uz3 : memref<256xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%uz3 : memref<256xf32, #hivm.address_space<ub>>) outs(%zs3 : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
    return
  }
}
