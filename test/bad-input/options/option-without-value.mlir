// Bad input (options): an option without its value (xDSL read a bare {sync} as the default, silently).
// ARGS: -p ascend-compile{sync}
// ERROR: invalid pass pipeline: ascend-compile: option sync has no value (write sync=VALUE)
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
