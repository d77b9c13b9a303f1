// Bad input (chip-files): a chip file whose [chip] table says extends (extends is a top-level key).
// ARGS: -p 'ascend-compile{chip-file="%S/../Inputs/extends-itself.toml"}'
// ERROR: key 'chip.extends' is not a chip setting
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
