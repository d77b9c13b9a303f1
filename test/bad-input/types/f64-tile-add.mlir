// Bad input (types): f64 arithmetic.
// ARGS: -p convert-tile-to-hivm{chip=ascend910b}
// SIM: --chip ascend910b
// ERROR: the buffer has element type f64, which no built-in chip has for storage (legal: i1, i8,
module {
  func.func @k() {
    %u = memref.alloc() : memref<16xf64, #hivm.address_space<ub>>
    tile.add ins(%u, %u : memref<16xf64, #hivm.address_space<ub>>, memref<16xf64, #hivm.address_space<ub>>) outs(%u : memref<16xf64, #hivm.address_space<ub>>)
    return
  }
}
