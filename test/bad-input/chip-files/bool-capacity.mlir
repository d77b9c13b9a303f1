// Bad input (chip-files): a capacity given as a boolean (TOML's true is no 1).
// ARGS: -p 'ascend-compile{chip-file="%S/../Inputs/bool-capacity.toml"}'
// ERROR: key 'capacity.ub' must be an integer, got True
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
