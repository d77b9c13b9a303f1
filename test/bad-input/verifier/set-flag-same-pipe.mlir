// Bad input (verifier): a flag between one pipe and itself.
// ERROR: set and wait pipes must differ, got PIPE_V twice (same-pipe order needs pipe_barrier, not
module {
  func.func @k() {
    hivm.hir.set_flag[<PIPE_V>, <PIPE_V>, <EVENT_ID0>]
    return
  }
}
