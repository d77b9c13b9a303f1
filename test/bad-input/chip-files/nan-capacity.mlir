// Bad input (chip-files): a chip file whose UB capacity is nan.
// ARGS: -p 'ascend-compile{chip-file="%S/../Inputs/nan-ub.toml"}'
// ERROR: key 'capacity.ub' must be an integer, got nan
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
