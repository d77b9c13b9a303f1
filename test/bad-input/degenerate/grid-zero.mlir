// Bad input (degenerate): tile.grid = 0: no block runs.
// ARGS: -p ascend-compile
// ERROR: 'tile.grid' must be a positive integer, got 0
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) attributes {tile.kernel, tile.grid = 0 : i64} {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
