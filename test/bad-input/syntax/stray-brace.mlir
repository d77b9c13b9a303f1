// Bad input (syntax): a brace where an operation should be (xDSL's message was " in block definition", no words before it).
// ERROR: expected an operation or a block label (^name) here
module {
  func.func @k() {
    {}
    return
  }
}
