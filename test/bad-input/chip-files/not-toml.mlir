// Bad input (chip-files): a chip file that is not TOML.
// ARGS: -p 'ascend-compile{chip-file="%S/../Inputs/not-toml.toml"}'
// ERROR: is not valid: Expected '=' after a key in a key/value pair (at line 1, column 6)
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
