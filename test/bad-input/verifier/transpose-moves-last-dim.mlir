// Bad input (verifier): the hardware keeps the last dim in place.
// ERROR: transpose [1, 0] moves the last dimension (the hardware keeps it in place)
module {
  func.func @k() {
    %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    hivm.hir.vexp ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>) transpose = [1, 0]
    return
  }
}
