// Bad input (subviews): an on-chip subview past its buffer.
// ERROR: dimension 0 reads up to index 23 (offset 8, size 16, stride 1) but the source has size 16
module {
  func.func @k() {
    %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %s = memref.subview %u[8, 0] [16, 16] [1, 1] : memref<16x16xf32, #hivm.address_space<ub>> to memref<16x16xf32, strided<[16, 1], offset: 128>, #hivm.address_space<ub>>
    return
  }
}
