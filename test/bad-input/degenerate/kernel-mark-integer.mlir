// Bad input (degenerate): tile.kernel = 0 : i32 (an integer, not a boolean: is 0 a kernel?).
// ARGS: -p ascend-compile
// ERROR: 'tile.kernel' must be a unit attribute or a boolean (true/false), got 0 : i32
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) attributes {tile.kernel = 0 : i32} {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
