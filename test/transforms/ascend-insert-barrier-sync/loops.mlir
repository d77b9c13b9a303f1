// RUN: ascend-opt %s --split-input-file -p ascend-insert-barrier-sync | filecheck %s

// Loop-carried dependences: the loads of iteration i+1 overwrite %ux and %uy, which the
// vadd of iteration i read, but the barrier before the store of iteration i already
// drained that vadd, so no barrier is needed at the start of the body. The store of
// iteration i and the vadd of iteration i+1 (which rewrites %uz) are ordered by the
// barrier before the vadd.

// CHECK-LABEL: func.func @vadd_loop
// CHECK:       scf.for
// CHECK:         %zs = memref.subview
// CHECK-NEXT:    hivm.hir.load ins(%xs
// CHECK-NEXT:    hivm.hir.load ins(%ys
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:    hivm.hir.vadd
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:    hivm.hir.store
// CHECK-NEXT:  }
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  func.return
func.func @vadd_loop(%x: memref<4096xf32, #hivm.address_space<gm>>, %y: memref<4096xf32, #hivm.address_space<gm>>, %z: memref<4096xf32, #hivm.address_space<gm>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c512 = arith.constant 512 : index
  %ux = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
  %uy = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
  %uz = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %c8 step %c1 {
    %off = arith.muli %i, %c512 : index
    %xs = memref.subview %x[%off] [512] [1] : memref<4096xf32, #hivm.address_space<gm>> to memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    %ys = memref.subview %y[%off] [512] [1] : memref<4096xf32, #hivm.address_space<gm>> to memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    %zs = memref.subview %z[%off] [512] [1] : memref<4096xf32, #hivm.address_space<gm>> to memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.load ins(%xs : memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux : memref<512xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%ys : memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%uy : memref<512xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ux, %uy : memref<512xf32, #hivm.address_space<ub>>, memref<512xf32, #hivm.address_space<ub>>) outs(%uz : memref<512xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%uz : memref<512xf32, #hivm.address_space<ub>>) outs(%zs : memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
  }
  return
}

// -----

// A dependence that is only loop-carried: the body's first op reads what its last op
// wrote in the previous iteration. The barrier for it is found by the back-edge fixpoint.

// CHECK-LABEL: func.func @carried_only
// CHECK:       scf.for
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:    hivm.hir.store ins(%u
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:    hivm.hir.load ins(%x
// CHECK-NEXT:  }
func.func @carried_only(%x: memref<64xf32, #hivm.address_space<gm>>, %z: memref<64xf32, #hivm.address_space<gm>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %c4 step %c1 {
    hivm.hir.store ins(%u : memref<64xf32, #hivm.address_space<ub>>) outs(%z : memref<64xf32, #hivm.address_space<gm>>)
    hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
  }
  return
}

// -----

// Nested loops: the inner loop's ops see what is still open from the outer body (the
// load of %u) and, through the outer back edge, the store of %w.

// CHECK-LABEL: func.func @nested
// CHECK:       scf.for %i
// CHECK-NEXT:    hivm.hir.load
// CHECK-NEXT:    scf.for %j
// CHECK-NEXT:      hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:      hivm.hir.vadd
// CHECK-NEXT:    }
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:    hivm.hir.store
// CHECK-NEXT:  }
func.func @nested(%x: memref<64xf32, #hivm.address_space<gm>>, %z: memref<64xf32, #hivm.address_space<gm>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %w = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %c4 step %c1 {
    hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
    scf.for %j = %c0 to %c4 step %c1 {
      hivm.hir.vadd ins(%u, %w : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%w : memref<64xf32, #hivm.address_space<ub>>)
    }
    hivm.hir.store ins(%w : memref<64xf32, #hivm.address_space<ub>>) outs(%z : memref<64xf32, #hivm.address_space<gm>>)
  }
  return
}
