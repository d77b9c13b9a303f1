// Bad input (control): a kernel calling itself.
// ERROR: calls 'k' recursively; kernels cannot recurse (no call stack on an AI Core)
module {
  func.func @k() {
    func.call @k() : () -> ()
    return
  }
}
