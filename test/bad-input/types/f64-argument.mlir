// Bad input (types): an f64 kernel argument.
// ERROR: argument #0 has element type f64, which no built-in chip has for storage (legal: i1, i8,
module {
  func.func @k(%g: memref<16xf64, #hivm.address_space<gm>>) {

    return
  }
}
