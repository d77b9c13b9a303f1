// Bad input (options): num-stages=0 to ascend-compile was read as the default (no option) and compiled.
// ARGS: -p 'ascend-compile{num-stages=0}'
// ERROR: ascend-compile: num-stages must be >= 1
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
