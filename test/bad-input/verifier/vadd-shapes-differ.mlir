// Bad input (verifier): operands of one shape.
// ERROR: operand shape 16 is not compatible with the output shape 32 (same shape, a scalar, or
module {
  func.func @k() {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    %w = memref.alloc() : memref<32xf32, #hivm.address_space<ub>>
    hivm.hir.vadd ins(%u, %u : memref<16xf32, #hivm.address_space<ub>>, memref<16xf32, #hivm.address_space<ub>>) outs(%w : memref<32xf32, #hivm.address_space<ub>>)
    return
  }
}
