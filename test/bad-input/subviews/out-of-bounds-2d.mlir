// Bad input (subviews): columns 48..79 of 64.
// ERROR: dimension 1 reads up to index 79 (offset 48, size 32, stride 1) but the source has size
module {
  func.func @k(%g: memref<16x64xf32, #hivm.address_space<gm>>) {
    %s = memref.subview %g[0, 48] [16, 32] [1, 1] : memref<16x64xf32, #hivm.address_space<gm>> to memref<16x32xf32, strided<[64, 1], offset: 48>, #hivm.address_space<gm>>
    return
  }
}
