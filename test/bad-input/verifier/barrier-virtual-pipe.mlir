// Bad input (verifier): pipe_barrier on a pipe the core does not have.
// ERROR: pipe must be a hardware pipe or PIPE_ALL, got PIPE_V2
module {
  func.func @k() {
    hivm.hir.pipe_barrier[<PIPE_V2>]
    return
  }
}
