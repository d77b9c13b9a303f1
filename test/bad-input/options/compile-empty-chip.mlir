// Bad input (options): chip= with an empty name.
// ARGS: -p 'ascend-compile{chip=unknownchip}'
// ERROR: unknown chip 'unknownchip'
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
