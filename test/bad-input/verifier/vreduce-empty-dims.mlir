// Bad input (verifier): reduce something.
// ERROR: reduce_dims must not be empty
module {
  func.func @k() {
    %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %r = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
    hivm.hir.vreduce <sum> ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = []
    return
  }
}
