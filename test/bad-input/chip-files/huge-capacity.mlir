// Bad input (chip-files): a UB of 10^23 bytes: no offset the compiler writes (i64) could address it (it was accepted).
// ARGS: -p 'ascend-compile{chip-file="%S/../Inputs/huge-capacity.toml"}'
// ERROR: key 'capacity.ub' must be <= 9223372036854775807 (a 64-bit integer)
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
