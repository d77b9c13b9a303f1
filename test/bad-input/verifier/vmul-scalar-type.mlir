// Bad input (verifier): an f16 scalar times f32 data.
// ERROR: scalar operand type f16 differs from the element type f32
module {
  func.func @k() {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    %s = arith.constant 2.0 : f16
    hivm.hir.vmul ins(%u, %s : memref<16xf32, #hivm.address_space<ub>>, f16) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
