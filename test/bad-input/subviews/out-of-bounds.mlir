// Bad input (subviews): elements 40..71 of 64.
// ERROR: dimension 0 reads up to index 71 (offset 40, size 32, stride 1) but the source has size
module {
  func.func @k(%g: memref<64xf32, #hivm.address_space<gm>>) {
    %s = memref.subview %g[40] [32] [1] : memref<64xf32, #hivm.address_space<gm>> to memref<32xf32, strided<[1], offset: 40>, #hivm.address_space<gm>>
    return
  }
}
