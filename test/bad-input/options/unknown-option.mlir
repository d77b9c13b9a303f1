// Bad input (options): bogus= is not an option of the pass.
// ARGS: -p convert-tile-to-hivm{bogus=1}
// ERROR: invalid pass pipeline: Provided arguments ["bogus"] not found in expected arguments
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
