// Bad input (control): two functions calling each other.
// ERROR: calls 'helper' recursively; kernels cannot recurse (no call stack on an AI Core)
module {
  func.func @k() {
    func.call @helper() : () -> ()
    return
  }
  func.func @helper() {
    func.call @k() : () -> ()
    return
  }
}
