// Bad input (chip-files): 100 events per pipe pair: the hardware has EVENT_ID0..7.
// ARGS: -p 'ascend-compile{chip-file="%S/../Inputs/events-100.toml"}'
// ERROR: key 'chip.events_per_pipe_pair' must be <= 8
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
