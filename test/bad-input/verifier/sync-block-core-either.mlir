// Bad input (verifier): a sync_block op runs on one core.
// ERROR: core type must be CUBE or VECTOR, got CUBE_OR_VECTOR
module {
  func.func @k() {
    hivm.hir.sync_block_set[<CUBE_OR_VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 0
    return
  }
}
