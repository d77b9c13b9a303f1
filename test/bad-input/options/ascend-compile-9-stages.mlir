// Bad input (options): ascend-compile num-stages=9 (more versions than event ids).
// ARGS: -p ascend-compile{num-stages=9}
// ERROR: ascend-modulo-schedule: num-stages must be in 1..8
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
