// Bad input (options): schedule=fastest.
// ARGS: -p 'ascend-compile{schedule=fastest}'
// ERROR: unknown schedule=fastest (expected one of: modulo, program-order)
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
