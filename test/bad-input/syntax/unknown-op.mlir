// Bad input (syntax): an op hivm does not define.
// ERROR: Operation hivm.hir.vbogus is not registered
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    hivm.hir.vbogus ins(%g : memref<16xf32, #hivm.address_space<gm>>)
    return
  }
}
