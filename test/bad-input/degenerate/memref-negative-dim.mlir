// Bad input (degenerate): a memref type with a negative dimension.
// ERROR: Expected shape type
module {
  func.func @k(%g: memref<-16xf32, #hivm.address_space<gm>>) {
    return
  }
}
