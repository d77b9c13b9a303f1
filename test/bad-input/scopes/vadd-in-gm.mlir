// Bad input (scopes): vector ops work on ub.
// ERROR: vector input must be in ub, got gm (vector ops work on the unified buffer)
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    hivm.hir.vadd ins(%g, %g : memref<16xf32, #hivm.address_space<gm>>, memref<16xf32, #hivm.address_space<gm>>) outs(%g : memref<16xf32, #hivm.address_space<gm>>)
    return
  }
}
