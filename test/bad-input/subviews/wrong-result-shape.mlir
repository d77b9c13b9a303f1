// Bad input (subviews): 32 elements viewed as 16.
// ERROR: result shape 16 is not the subview's sizes 32 (or those without unit dimensions)
module {
  func.func @k(%g: memref<64xf32, #hivm.address_space<gm>>) {
    %s = memref.subview %g[0] [32] [1] : memref<64xf32, #hivm.address_space<gm>> to memref<16xf32, strided<[1]>, #hivm.address_space<gm>>
    return
  }
}
