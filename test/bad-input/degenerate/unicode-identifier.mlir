// Bad input (degenerate): a function name with unicode that is a bare identifier (not quoted).
// ERROR: '(' expected
module {
  func.func @ké() {
    return
  }
}
