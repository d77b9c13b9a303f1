// Bad input (degenerate): a return with a value in a function returning nothing.
// ERROR: Expected arguments to have the same types as the function output types
module {
  func.func @k() {
    %c = arith.constant 0 : index
    func.return %c : index
  }
}
