// Bad input (chip-files): a negative latency.
// ARGS: -p 'ascend-compile{chip-file="%S/../Inputs/negative-latency.toml"}'
// ERROR: key 'latency.copy.gm_ub.base' must be >= 0, got -90
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
