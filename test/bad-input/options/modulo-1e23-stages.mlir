// Bad input (options): a 1e23 num-stages (took 3.5 GB before it was bounded).
// ARGS: -p convert-tile-to-hivm,ascend-modulo-schedule{num-stages=100000000000000000000000}
// ERROR: ascend-modulo-schedule: num-stages must be in 1..8 (one event id per buffer version; ascend950 has 8 per pipe pair), got 100000000000000000000000
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
