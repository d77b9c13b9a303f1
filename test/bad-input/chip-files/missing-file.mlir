// Bad input (chip-files): a chip file that is not there.
// ARGS: -p 'ascend-compile{chip-file="%S/../Inputs/not-there.toml"}'
// ERROR: No such file or directory
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
