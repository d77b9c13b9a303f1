// Bad input (chip-files): a chip file with 0 event ids per pipe pair.
// ARGS: -p 'ascend-compile{chip-file="%S/../Inputs/zero-events.toml"}'
// ERROR: key 'chip.events_per_pipe_pair' must be >= 1, got 0
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
