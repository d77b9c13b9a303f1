// Bad input (control): scheduling needs hivm ops.
// ARGS: -p ascend-modulo-schedule
// ERROR: ascend-modulo-schedule works on hivm IR: run convert-tile-to-hivm first
module {
  func.func @k() {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.exp ins(%u : memref<16xf32, #hivm.address_space<ub>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
