// Bad input (verifier): 8 events per pipe pair.
// ERROR: static event id EVENT_ID8 is out of range (EVENT_ID0..EVENT_ID7, 8 per pipe pair)
module {
  func.func @k() {
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID8>]
    return
  }
}
