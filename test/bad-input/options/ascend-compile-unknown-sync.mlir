// Bad input (options): sync=bogus.
// ARGS: -p ascend-compile{sync=bogus}
// ERROR: ascend-compile: unknown sync=bogus (expected one of: barrier-all, solver)
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
