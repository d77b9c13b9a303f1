// Bad input (types): no i4 buffers.
// ERROR: the buffer has element type i4, which no built-in chip has for storage (legal: i1, i8,
module {
  func.func @k() {
    %u = memref.alloc() : memref<16xi4, #hivm.address_space<ub>>
    return
  }
}
