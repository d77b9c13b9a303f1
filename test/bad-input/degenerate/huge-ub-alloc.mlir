// Bad input (degenerate): a UB buffer of 2^40 f32.
// ARGS: -p ascend-compile
// ERROR: this ub buffer alone needs 4398046511104 bytes
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<1099511627776xf32, #hivm.address_space<ub>>
    return
  }
}
