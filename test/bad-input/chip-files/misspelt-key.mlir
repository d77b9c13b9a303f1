// Bad input (chip-files): capacity.ubb is not a setting.
// ARGS: -p 'ascend-compile{chip-file="%S/../Inputs/misspelt.toml"}'
// ERROR: key 'capacity.ubb' is not a chip setting (expected one of: gm, cbuf, ca, cb, cc, ub)
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
