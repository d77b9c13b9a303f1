// Bad input (subviews): a size of -4.
// ERROR: size -4 of dimension 0 is negative
module {
  func.func @k(%g: memref<64xf32, #hivm.address_space<gm>>) {
    %s = memref.subview %g[0] [-4] [1] : memref<64xf32, #hivm.address_space<gm>> to memref<4xf32, strided<[1]>, #hivm.address_space<gm>>
    return
  }
}
