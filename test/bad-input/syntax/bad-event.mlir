// Bad input (syntax): events are EVENT_ID<n>.
// ERROR: expected EVENT_ID<n>, got EVENT_7
module {
  func.func @k() {
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_7>]
    return
  }
}
