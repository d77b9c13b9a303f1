// Bad input (options): num-stages=-1 with schedule=program-order (no modulo pass to refuse it).
// ARGS: -p 'ascend-compile{schedule=program-order num-stages=-1}'
// ERROR: ascend-compile: num-stages must be >= 1
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
