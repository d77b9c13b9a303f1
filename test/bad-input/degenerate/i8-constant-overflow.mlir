// Bad input (degenerate): 300 as an i8.
// ERROR: Integer value 300 is out of range for type i8
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %c = arith.constant 300 : i8
    return
  }
}
