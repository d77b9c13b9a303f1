// Bad input (chip-files): the same-pipe rule naming a pipe that does not exist.
// ARGS: -p 'ascend-compile{chip-file="%S/../Inputs/ordered-unknown-pipe.toml"}'
// ERROR: key 'chip.ordered_pipes' names 'Q', not a pipe
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
