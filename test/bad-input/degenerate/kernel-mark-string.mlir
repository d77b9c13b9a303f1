// Bad input (degenerate): tile.kernel = "no" was read as a kernel mark (only the
// attribute's presence counted); a kernel mark is unit or a boolean.
// ARGS: -p ascend-compile
// SIM:
// ERROR: 'tile.kernel' must be a unit attribute or a boolean (true/false), got "no"
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) attributes {tile.kernel = "no"} {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
