// Bad input (degenerate): an index constant beyond 64 bits.
// ERROR: index value 99999999999999999999999 does not fit in 64 bits
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %c = arith.constant 99999999999999999999999 : index
    return
  }
}
