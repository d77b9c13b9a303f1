// Bad input (verifier): vadd is binary.
// ERROR: expects 2 input(s) and 1 output, got 3 and 1
module {
  func.func @k() {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    hivm.hir.vadd ins(%u, %u, %u : memref<16xf32, #hivm.address_space<ub>>, memref<16xf32, #hivm.address_space<ub>>, memref<16xf32, #hivm.address_space<ub>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
