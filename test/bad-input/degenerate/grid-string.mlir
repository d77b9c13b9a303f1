// Bad input (degenerate): tile.grid = "8": a string, not a block count (ascend-sim
// refused it with no line and column).
// ARGS: -p ascend-compile
// SIM:
// ERROR: 'tile.grid' must be a positive integer, got "8"
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) attributes {tile.kernel, tile.grid = "8"} {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    tile.copy ins(%u : memref<16xf32, #hivm.address_space<ub>>) outs(%g : memref<16xf32, #hivm.address_space<gm>>)
    return
  }
}
