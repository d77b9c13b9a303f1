// Bad input (subviews): two offsets for a 1-d source.
// ERROR: expects 1 offsets, sizes and strides (the source rank), got 2, 2 and 2
module {
  func.func @k(%g: memref<64xf32, #hivm.address_space<gm>>) {
    %s = memref.subview %g[0, 0] [8, 8] [1, 1] : memref<64xf32, #hivm.address_space<gm>> to memref<8x8xf32, strided<[8, 1]>, #hivm.address_space<gm>>
    return
  }
}
