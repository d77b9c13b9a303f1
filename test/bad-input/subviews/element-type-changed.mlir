// Bad input (subviews): a subview does not convert.
// ERROR: result element type and memory space must be the source's
module {
  func.func @k(%g: memref<64xf32, #hivm.address_space<gm>>) {
    %s = memref.subview %g[0] [32] [1] : memref<64xf32, #hivm.address_space<gm>> to memref<32xf16, strided<[1]>, #hivm.address_space<gm>>
    return
  }
}
