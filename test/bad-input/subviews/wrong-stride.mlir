// Bad input (subviews): stride 2 of the source row is 64.
// ERROR: result layout does not match the subview: stride 64 on result dimension 0 (expected 128)
module {
  func.func @k(%g: memref<16x64xf32, #hivm.address_space<gm>>) {
    %s = memref.subview %g[0, 0] [8, 64] [2, 1] : memref<16x64xf32, #hivm.address_space<gm>> to memref<8x64xf32, strided<[64, 1]>, #hivm.address_space<gm>>
    return
  }
}
