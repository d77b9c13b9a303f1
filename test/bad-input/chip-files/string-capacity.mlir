// Bad input (chip-files): a capacity given as a string.
// ARGS: -p 'ascend-compile{chip-file="%S/../Inputs/string-capacity.toml"}'
// ERROR: key 'capacity.ub' must be an integer, got 'lots'
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
