// Bad input (options): two commas: an empty pass name between them.
// ARGS: -p convert-tile-to-hivm,,ascend-estimate-latency
// ERROR: invalid pass pipeline: Expected pass name here (column 22)
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
