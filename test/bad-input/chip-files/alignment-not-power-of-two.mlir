// Bad input (chip-files): a UB alignment of 48 bytes: addresses are aligned by masking, 48 is no alignment (it was accepted).
// ARGS: -p 'ascend-compile{chip-file="%S/../Inputs/alignment-not-power-of-two.toml"}'
// ERROR: key 'alignment.ub' must be a power of two, got 48
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
