// Bad input (subviews): offset 8 printed as 4.
// ERROR: result layout does not match the subview: offset 4 (expected 8)
module {
  func.func @k(%g: memref<64xf32, #hivm.address_space<gm>>) {
    %s = memref.subview %g[8] [32] [1] : memref<64xf32, #hivm.address_space<gm>> to memref<32xf32, strided<[1], offset: 4>, #hivm.address_space<gm>>
    return
  }
}
