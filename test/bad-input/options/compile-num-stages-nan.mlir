// Bad input (options): num-stages=nan.
// ARGS: -p 'ascend-compile{num-stages=nan}'
// ERROR: Incompatible types: given ('nan',), expected int | None
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
