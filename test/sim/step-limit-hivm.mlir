// RUN: not ascend-sim %s 2>&1 | filecheck %s
// a hivm-level loop of 2^62 trips: the simulator stops at its step limit with a located error.
// The simulator refuses it from its static trip counts before it starts (MAX_INSTRUCTIONS per core).
// CHECK: step-limit-hivm.mlir:11:5: error: 'scf.for' op step limit: this loop issues 4611686018427387904 times 4 hivm ops, more than the simulator's 100000 per core
module {
  func.func @k(%x: memref<256xf32, #hivm.address_space<gm>>, %y: memref<256xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %big = arith.constant 4611686018427387904 : index
    %u = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
    scf.for %i = %c0 to %big step %c1 {
      hivm.hir.load ins(%x : memref<256xf32, #hivm.address_space<gm>>) outs(%u : memref<256xf32, #hivm.address_space<ub>>)
      hivm.hir.pipe_barrier[<PIPE_ALL>]
      hivm.hir.store ins(%u : memref<256xf32, #hivm.address_space<ub>>) outs(%y : memref<256xf32, #hivm.address_space<gm>>)
      hivm.hir.pipe_barrier[<PIPE_ALL>]
    }
    return
  }
}
