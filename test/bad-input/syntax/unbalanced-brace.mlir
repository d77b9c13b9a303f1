// Bad input (syntax): a region that never closes.
// ERROR: in block definition
module {
  func.func @k() {
    return
