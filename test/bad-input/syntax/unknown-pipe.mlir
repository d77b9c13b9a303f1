// Bad input (syntax): PIPE_X is not a pipe.
// ERROR: Expected `PIPE_S`, `PIPE_V`, `PIPE_M`, `PIPE_MTE1`, `PIPE_MTE2`, `PIPE_MTE3`, `PIPE_ALL`,
module {
  func.func @k() {
    hivm.hir.set_flag[<PIPE_X>, <PIPE_V>, <EVENT_ID0>]
    return
  }
}
