// Bad input (capacity): 40 MB in UB: no chip has that.
// SIM:
// ERROR: this ub buffer alone needs 41943040 bytes, but any built-in chip has 253952 bytes of ub
module {
  func.func @k() {
    %u = memref.alloc() : memref<10485760xf32, #hivm.address_space<ub>>
    return
  }
}
