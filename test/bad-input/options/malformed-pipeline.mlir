// Bad input (options): an unclosed option list.
// ARGS: -p convert-tile-to-hivm{chip=
// ERROR: invalid pass pipeline: Unknown argument value
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
