// Bad input (verifier): reduced dims keep size 1.
// ERROR: destination size on dim 1 must be 1, got 2
module {
  func.func @k() {
    %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %r = memref.alloc() : memref<16x2xf32, #hivm.address_space<ub>>
    hivm.hir.vreduce <sum> ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%r : memref<16x2xf32, #hivm.address_space<ub>>) reduce_dims = [1]
    return
  }
}
