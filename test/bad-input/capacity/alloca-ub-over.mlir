// Bad input (capacity): memref.alloca counts too.
// ERROR: this ub buffer alone needs 41943040 bytes, but any built-in chip has 253952 bytes of ub
module {
  func.func @k() {
    %u = memref.alloca() : memref<10485760xf32, #hivm.address_space<ub>>
    return
  }
}
