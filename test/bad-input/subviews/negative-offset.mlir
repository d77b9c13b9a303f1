// Bad input (subviews): an offset of -8.
// ERROR: offset -8 of dimension 0 is negative
module {
  func.func @k(%g: memref<64xf32, #hivm.address_space<gm>>) {
    %s = memref.subview %g[-8] [4] [1] : memref<64xf32, #hivm.address_space<gm>> to memref<4xf32, strided<[1], offset: -8>, #hivm.address_space<gm>>
    return
  }
}
