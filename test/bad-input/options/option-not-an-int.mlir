// Bad input (options): num-stages=abc.
// ARGS: -p convert-tile-to-hivm,ascend-modulo-schedule{num-stages=abc}
// ERROR: invalid pass pipeline: Incompatible types: given ('abc',), expected int | None
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
