// RUN: ascend-opt %s -p ascend-insert-sync | filecheck %s
// RUN: ascend-opt %examples/vecadd_dyn.mlir -p ascend-compile > %t.mlir
// RUN: ascend-opt %t.mlir -p ascend-insert-sync | diff %t.mlir -

// ascend-guard-zero-trip-loops wraps a loop that may run 0 times, with its sync, in an
// scf.if whose branch ends with pipe_barrier[<PIPE_ALL>]. The if's own ops then complete
// before anything after it: when the branch is not taken they do not run. A second
// ascend-insert-sync on the compiled vecadd_dyn (its unrolled loop guarded so) used to
// add MTE2 -> V and MTE2 -> MTE3 flags and two pipe barriers after the if; it changes
// nothing now. Ops before the if are not ordered by it (the other branch drains nothing).

// CHECK-LABEL: func.func @drained_inside(
// CHECK:       scf.if
// CHECK:         hivm.hir.load
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK:       }
// CHECK-NOT:   hivm.hir.set_flag
// CHECK:       hivm.hir.vadd

// CHECK-LABEL: func.func @before_the_if(
// CHECK:       hivm.hir.load
// CHECK-NEXT:  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK:       scf.if
// CHECK:       }
// CHECK:       hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT:  hivm.hir.vadd
module {
  func.func @drained_inside(%x: memref<256xf32, #hivm.address_space<gm>>, %z: memref<256xf32, #hivm.address_space<gm>>, %go: i1)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0_i64 = arith.constant 0 : i64
    %c1024_i64 = arith.constant 1024 : i64
    %ux = hivm.hir.pointer_cast(%c0_i64) : memref<256xf32, #hivm.address_space<ub>>
    %uz = hivm.hir.pointer_cast(%c1024_i64) : memref<256xf32, #hivm.address_space<ub>>
    scf.if %go {
      hivm.hir.load ins(%x : memref<256xf32, #hivm.address_space<gm>>) outs(%ux : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.pipe_barrier[<PIPE_ALL>]
    }
    hivm.hir.vadd ins(%ux, %ux : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%uz : memref<256xf32, #hivm.address_space<ub>>)
    return
  }
  func.func @before_the_if(%x: memref<256xf32, #hivm.address_space<gm>>, %y: memref<256xf32, #hivm.address_space<gm>>, %z: memref<256xf32, #hivm.address_space<gm>>, %go: i1)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0_i64 = arith.constant 0 : i64
    %c1024_i64 = arith.constant 1024 : i64
    %c2048_i64 = arith.constant 2048 : i64
    %ux = hivm.hir.pointer_cast(%c0_i64) : memref<256xf32, #hivm.address_space<ub>>
    %uy = hivm.hir.pointer_cast(%c1024_i64) : memref<256xf32, #hivm.address_space<ub>>
    %uz = hivm.hir.pointer_cast(%c2048_i64) : memref<256xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%x : memref<256xf32, #hivm.address_space<gm>>) outs(%ux : memref<256xf32, #hivm.address_space<ub>>)
    scf.if %go {
      hivm.hir.load ins(%y : memref<256xf32, #hivm.address_space<gm>>) outs(%uy : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.pipe_barrier[<PIPE_ALL>]
    }
    hivm.hir.vadd ins(%ux, %ux : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%uz : memref<256xf32, #hivm.address_space<ub>>)
    return
  }
}
