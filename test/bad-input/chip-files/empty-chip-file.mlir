// Bad input (chip-files): an empty chip file.
// ARGS: -p 'ascend-compile{chip-file="%S/../Inputs/empty.toml"}'
// ERROR: key 'chip.hacc_targets' is missing
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
