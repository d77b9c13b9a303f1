// RUN: not ascend-sim %s 2>&1 | filecheck %s
// a loop of 2^62 trips: the tools stop at their step limit with a located error instead of running for ever.
// The reference interpreter refuses it from its static trip counts before it starts (MAX_REFERENCE_STEPS).
// CHECK: step-limit-tile.mlir:11:5: error: step limit: this loop runs 4611686018427387904 times 3 ops, more than the reference interpreter's 1000000
module {
  func.func @k(%x: memref<256xf32, #hivm.address_space<gm>>, %y: memref<256xf32, #hivm.address_space<gm>>) attributes {tile.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %big = arith.constant 4611686018427387904 : index
    %u = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
    scf.for %i = %c0 to %big step %c1 {
      tile.copy ins(%x : memref<256xf32, #hivm.address_space<gm>>) outs(%u : memref<256xf32, #hivm.address_space<ub>>)
      tile.copy ins(%u : memref<256xf32, #hivm.address_space<ub>>) outs(%y : memref<256xf32, #hivm.address_space<gm>>)
    }
    return
  }
}
