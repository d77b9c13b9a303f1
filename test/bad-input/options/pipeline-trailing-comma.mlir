// Bad input (options): an empty pass name after the last comma (xDSL's parser read it as no pass).
// ARGS: -p ascend-compile,
// ERROR: invalid pass pipeline: Expected pass name here (column 16)
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
