// Bad input (degenerate): func.call with the wrong argument count.
// ERROR: incorrect number of operands for callee
module {
  func.func @h(%a: index) {
    return
  }
  func.func @k() {
    func.call @h() : () -> ()
    return
  }
}
