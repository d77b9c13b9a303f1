// Bad input (chip-files): a copy path on pipe MTE9.
// ARGS: -p 'ascend-compile{chip-file="%S/../Inputs/bad-pipe.toml"}'
// ERROR: key 'latency.copy.gm_cbuf.pipe' must be one of MTE1, MTE2, MTE3, M, V, FIX, S, got 'MTE9'
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
