// Bad input (chip-files): capacity.ub = -1.
// ARGS: -p 'ascend-compile{chip-file="%S/../Inputs/negative-ub.toml"}'
// ERROR: key 'capacity.ub' must be >= 1, got -1
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
