// Bad input (options): one option twice (xDSL kept the last: the kernel compiled for the 950).
// ARGS: -p 'ascend-compile{chip=ascend910b chip=ascend950}'
// ERROR: invalid pass pipeline: ascend-compile: option chip is given twice
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
