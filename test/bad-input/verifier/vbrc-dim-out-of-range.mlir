// Bad input (verifier): rank 2 has no dim 2.
// ERROR: broadcast dim 2 is out of range for rank 2
module {
  func.func @k() {
    %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %r = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
    hivm.hir.vbrc ins(%r : memref<16x1xf32, #hivm.address_space<ub>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>) broadcast_dims = [2]
    return
  }
}
