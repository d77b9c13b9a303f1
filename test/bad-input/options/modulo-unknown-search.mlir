// Bad input (options): search=bogus.
// ARGS: -p convert-tile-to-hivm,ascend-modulo-schedule{search=bogus}
// ERROR: ascend-modulo-schedule: search must be one of incremental, bisect, got 'bogus'
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
