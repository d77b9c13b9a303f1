// Bad input (verifier): <max_with_index_left> returns values and indices.
// ERROR: <max_with_index_left> expects 2 output(s) (values and indices), got 1
module {
  func.func @k() {
    %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %r = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
    hivm.hir.vreduce <max_with_index_left> ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
    return
  }
}
