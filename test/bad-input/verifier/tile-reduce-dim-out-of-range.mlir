// Bad input (verifier): rank 2 has no dim 5.
// ERROR: dim 5 out of range for rank 2
module {
  func.func @k() {
    %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %r = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
    tile.reduce <sum> ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) dims = [5]
    return
  }
}
