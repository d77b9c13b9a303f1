// Bad input (verifier): 16 cross-core flags.
// ERROR: flag id 16 is out of range (0..15)
module {
  func.func @k() {
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 16
    return
  }
}
