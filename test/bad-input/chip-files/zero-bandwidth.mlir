// Bad input (chip-files): a copy path of bandwidth 0 (a division by zero in the latency model).
// ARGS: -p 'ascend-compile{chip-file="%S/../Inputs/zero-bandwidth.toml"}'
// ERROR: key 'latency.copy.gm_ub.bandwidth' must be >= 1, got 0
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
