// Bad input (subviews): a subview at offset 8 needs a strided layout.
// ERROR: result layout does not match the subview: offset 0 (expected 8)
module {
  func.func @k(%g: memref<64xf32, #hivm.address_space<gm>>) {
    %s = memref.subview %g[8] [32] [1] : memref<64xf32, #hivm.address_space<gm>> to memref<32xf32, #hivm.address_space<gm>>
    return
  }
}
