// Bad input (chip-files): a capacity with a fraction of a byte.
// ARGS: -p 'ascend-compile{chip-file="%S/../Inputs/float-capacity.toml"}'
// ERROR: key 'capacity.ub' must be an integer, got 196608.5
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
