// Bad input (options): one option twice, spelled with a dash and with an underscore (xDSL kept the last).
// ARGS: -p 'ascend-compile{num-stages=2 num_stages=3}'
// ERROR: invalid pass pipeline: ascend-compile: option num_stages is given twice
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
