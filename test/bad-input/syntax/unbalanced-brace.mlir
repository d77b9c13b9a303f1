// Bad input (syntax): a region that never closes.
// ERROR: expected an operation or a block label (^name) here
module {
  func.func @k() {
    return
