// Bad input (syntax): #hivm.bogus is not an attribute.
// ERROR: 'hivm.bogus' is not registered
module {
  func.func @k() {
    hivm.hir.pipe_barrier[#hivm.bogus<PIPE_V>]
    return
  }
}
