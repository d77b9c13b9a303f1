// Bad input (degenerate): a string attribute that is never closed.
// ERROR: End of file reached before closing string literal
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) attributes {sym_visibility = "priv} {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
