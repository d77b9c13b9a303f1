// Bad input (subviews): stride 2 over 33 elements reaches 64.
// ERROR: dimension 0 reads up to index 64 (offset 0, size 33, stride 2) but the source has size 64
module {
  func.func @k(%g: memref<64xf32, #hivm.address_space<gm>>) {
    %s = memref.subview %g[0] [33] [2] : memref<64xf32, #hivm.address_space<gm>> to memref<33xf32, strided<[2]>, #hivm.address_space<gm>>
    return
  }
}
