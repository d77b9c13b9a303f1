// RUN: ascend-opt %s -p ascend-insert-sync | filecheck %s
// RUN: ascend-opt %s -p ascend-insert-sync > %t.mlir
// RUN: ascend-sim %t.mlir --json --perturb 5 | filecheck %s --check-prefix=SIM
// RUN: ascend-opt %t.mlir -p ascend-verify-sync
// RUN: ascend-opt %t.mlir -p ascend-insert-sync > %t.2.mlir
// RUN: diff %t.mlir %t.2.mlir

// A loop whose body runs once (one trip, no loop around it) sets each of its flags once:
// no next pass can set one again before its wait, so no flag goes back from the waiting
// pipe to the setting one (a credit, primed before the loop and drained after it, whose
// set holds the next op of its pipe until the op before it completes: random kernel 82
// ran 808 cycles with them, 646 without, barrier-all 741). The same inner loop of one
// trip inside a loop of two runs twice and keeps them (@nested_once: V -> MTE2 and
// MTE3 -> V flags set in the inner loop's body). The oracle finds no race under
// perturbed latencies, verify-sync accepts all three, and a second run adds nothing.

// CHECK-LABEL: func.func @once
// CHECK-NOT:    set_flag
// CHECK:        scf.for %i
// CHECK-NOT:      set_flag[<PIPE_V>, <PIPE_MTE2>
// CHECK-NOT:      set_flag[<PIPE_MTE3>, <PIPE_V>
// CHECK:        }
// CHECK-NEXT:   hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:   func.return
// CHECK-LABEL: func.func @nested_once
// CHECK:        scf.for %o
// CHECK:          scf.for %i
// CHECK:            hivm.hir.vadd
// CHECK-NEXT:       hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>
// CHECK:            hivm.hir.store
// CHECK-NEXT:       hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>

// SIM: "races": []
// SIM-SAME: "deadlock": false
// SIM-SAME: "unbalanced_flags": []
// SIM-SAME: "double_sets": []
// SIM-SAME: "ok": true
module {
  func.func @once(%x: memref<2048xf32, #hivm.address_space<gm>>, %z: memref<2048xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ctrips = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %p0 = arith.constant 0 : i64
    %p1 = arith.constant 1024 : i64
    %p2 = arith.constant 2048 : i64
    %p3 = arith.constant 3072 : i64
    %u0 = hivm.hir.pointer_cast(%p0) : memref<256xf32, #hivm.address_space<ub>>
    %v0 = hivm.hir.pointer_cast(%p1) : memref<256xf32, #hivm.address_space<ub>>
    %u1 = hivm.hir.pointer_cast(%p2) : memref<256xf32, #hivm.address_space<ub>>
    %v1 = hivm.hir.pointer_cast(%p3) : memref<256xf32, #hivm.address_space<ub>>
    scf.for %i = %c0 to %ctrips step %c1 {
      %r = arith.muli %i, %c512 : index
      %row = arith.addi %r, %c0 : index
      %off0 = arith.addi %row, %c0 : index
      %xs0 = memref.subview %x[%off0] [256] [1] : memref<2048xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %zs0 = memref.subview %z[%off0] [256] [1] : memref<2048xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs0 : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%u0 : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.vadd ins(%u0, %u0 : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%v0 : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.vsub ins(%v0, %v0 : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%u0 : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.store ins(%u0 : memref<256xf32, #hivm.address_space<ub>>) outs(%zs0 : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
      %off1 = arith.addi %row, %c256 : index
      %xs1 = memref.subview %x[%off1] [256] [1] : memref<2048xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %zs1 = memref.subview %z[%off1] [256] [1] : memref<2048xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs1 : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%u1 : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.vadd ins(%u1, %u1 : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%v1 : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.vsub ins(%v1, %v1 : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%u1 : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.store ins(%u1 : memref<256xf32, #hivm.address_space<ub>>) outs(%zs1 : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
    }
    return
  }
  func.func @nested_once(%x: memref<2048xf32, #hivm.address_space<gm>>, %z: memref<2048xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ctrips = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %p0 = arith.constant 0 : i64
    %p1 = arith.constant 1024 : i64
    %p2 = arith.constant 2048 : i64
    %p3 = arith.constant 3072 : i64
    %u0 = hivm.hir.pointer_cast(%p0) : memref<256xf32, #hivm.address_space<ub>>
    %v0 = hivm.hir.pointer_cast(%p1) : memref<256xf32, #hivm.address_space<ub>>
    %u1 = hivm.hir.pointer_cast(%p2) : memref<256xf32, #hivm.address_space<ub>>
    %v1 = hivm.hir.pointer_cast(%p3) : memref<256xf32, #hivm.address_space<ub>>
    %couter = arith.constant 2 : index
    scf.for %o = %c0 to %couter step %c1 {
      scf.for %i = %c0 to %ctrips step %c1 {
        %r = arith.muli %i, %c512 : index
        %ro = arith.muli %o, %c512 : index
        %row = arith.addi %r, %ro : index
        %off0 = arith.addi %row, %c0 : index
        %xs0 = memref.subview %x[%off0] [256] [1] : memref<2048xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
        %zs0 = memref.subview %z[%off0] [256] [1] : memref<2048xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
        hivm.hir.load ins(%xs0 : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%u0 : memref<256xf32, #hivm.address_space<ub>>)
        hivm.hir.vadd ins(%u0, %u0 : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%v0 : memref<256xf32, #hivm.address_space<ub>>)
        hivm.hir.vsub ins(%v0, %v0 : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%u0 : memref<256xf32, #hivm.address_space<ub>>)
        hivm.hir.store ins(%u0 : memref<256xf32, #hivm.address_space<ub>>) outs(%zs0 : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
        %off1 = arith.addi %row, %c256 : index
        %xs1 = memref.subview %x[%off1] [256] [1] : memref<2048xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
        %zs1 = memref.subview %z[%off1] [256] [1] : memref<2048xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
        hivm.hir.load ins(%xs1 : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%u1 : memref<256xf32, #hivm.address_space<ub>>)
        hivm.hir.vadd ins(%u1, %u1 : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%v1 : memref<256xf32, #hivm.address_space<ub>>)
        hivm.hir.vsub ins(%v1, %v1 : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%u1 : memref<256xf32, #hivm.address_space<ub>>)
        hivm.hir.store ins(%u1 : memref<256xf32, #hivm.address_space<ub>>) outs(%zs1 : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
      }
    }
    return
  }
}
