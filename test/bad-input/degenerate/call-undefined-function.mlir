// Bad input (degenerate): a call to a function that does not exist.
// ERROR: '@nowhere' could not be found in symbol table
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    func.call @nowhere() : () -> ()
    return
  }
}
