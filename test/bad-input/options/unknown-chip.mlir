// Bad input (options): ascend9000 is not a chip.
// ARGS: -p convert-tile-to-hivm{chip=ascend9000}
// ERROR: unknown chip 'ascend9000'
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
