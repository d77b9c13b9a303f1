// Bad input (types): the same at tile level.
// ARGS: -p convert-tile-to-hivm
// ERROR: operand #0 has element type i1, which no built-in chip has for vector (legal: i8, i16,
module {
  func.func @k() {
    %u = memref.alloc() : memref<16xi1, #hivm.address_space<ub>>
    tile.mul ins(%u, %u : memref<16xi1, #hivm.address_space<ub>>, memref<16xi1, #hivm.address_space<ub>>) outs(%u : memref<16xi1, #hivm.address_space<ub>>)
    return
  }
}
