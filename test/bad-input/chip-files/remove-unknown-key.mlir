// Bad input (chip-files): removing a setting the parent chip does not have.
// ARGS: -p 'ascend-compile{chip-file="%S/../Inputs/remove-unknown-key.toml"}'
// ERROR: key 'remove.capacity.nosuch' names no setting of the chip it extends
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
