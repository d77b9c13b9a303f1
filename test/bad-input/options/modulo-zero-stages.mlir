// Bad input (options): num-stages=0.
// ARGS: -p convert-tile-to-hivm,ascend-modulo-schedule{num-stages=0}
// ERROR: ascend-modulo-schedule: num-stages must be >= 1
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
