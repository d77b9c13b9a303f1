// Bad input (syntax): #hivm.address_space<l2> is not a scope.
// ERROR: Expected `zero`, `gm`, `cbuf`, `ca`, `cb`, `cc`, or `ub`.
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<l2>>) {

    return
  }
}
