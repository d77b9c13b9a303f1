// RUN: ascend-opt %s -p ascend-insert-sync | filecheck %s
// RUN: ascend-opt %s -p ascend-insert-sync > %t.mlir
// RUN: ascend-sim %t.mlir --json --perturb 5 | filecheck %s --check-prefix=SIM
// RUN: ascend-opt %t.mlir -p ascend-insert-sync > %t.2.mlir
// RUN: diff %t.mlir %t.2.mlir

// A double-buffered vector loop on planned memory, no sync in the input: buffers
// alternate versions (pointer_cast at (i mod 2) * 1024), so the loop-carried WAR
// dependences (the next loads may overwrite x, y once the add read them; the next add
// may overwrite z once the store read it) are at distance 2. Every flag gets one event
// id per version (a dynamic i64 id, i mod 2), the carried ones are primed before the
// loop and drained after it: iterations overlap. The oracle finds no race, deadlock,
// double set or flag left set, under perturbed latencies; a second run adds nothing.

// CHECK:      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
// CHECK-NEXT: scf.for %i
// CHECK:        %[[V:.*]] = arith.remui %i, %{{.*}} : index
// CHECK-NEXT:   %[[E:.*]] = arith.index_cast %[[V]] : index to i64
// CHECK:        hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, %[[WAR:.*]]]
// CHECK-NEXT:   hivm.hir.load
// CHECK-NEXT:   hivm.hir.load
// CHECK-NEXT:   hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, %[[RAW:.*]]]
// CHECK-NEXT:   hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, %[[RAW]]]
// CHECK-NEXT:   hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, %[[E]]]
// CHECK-NEXT:   hivm.hir.vadd
// this iteration's store is released before the next iteration's load (_insert_set)
// CHECK-NEXT:   hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, %[[OUT:.*]]]
// CHECK-NEXT:   hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, %[[WAR]]]
// CHECK-NEXT:   hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, %[[OUT]]]
// CHECK-NEXT:   hivm.hir.store
// CHECK-NEXT:   hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, %[[E]]]
// CHECK-NEXT: }
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT: func.return

// SIM: "races": []
// SIM-SAME: "deadlock": false
// SIM-SAME: "unbalanced_flags": []
// SIM-SAME: "double_sets": []
// SIM-SAME: "ok": true
module {
  func.func @vadd_db(%x: memref<1024xf32, #hivm.address_space<gm>>, %y: memref<1024xf32, #hivm.address_space<gm>>,
                     %z: memref<1024xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %version_bytes = arith.constant 1024 : i64
    %y_base = arith.constant 2048 : i64
    %z_base = arith.constant 4096 : i64
    scf.for %i = %c0 to %c4 step %c1 {
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
      hivm.hir.load ins(%xs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.load ins(%ys : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%uy : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.vadd ins(%ux, %uy : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%uz : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.store ins(%uz : memref<256xf32, #hivm.address_space<ub>>) outs(%zs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
    }
    return
  }
}
