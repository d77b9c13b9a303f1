// Bad input (types): the AI Core has no f64.
// ERROR: the buffer has element type f64, which no built-in chip has for storage (legal: i1, i8,
module {
  func.func @k() {
    %u = memref.alloc() : memref<16xf64, #hivm.address_space<ub>>
    return
  }
}
