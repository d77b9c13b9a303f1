// Bad input (verifier): f32 + f16.
// ERROR: element types differ (f16 vs f32)
module {
  func.func @k() {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    %h = memref.alloc() : memref<16xf16, #hivm.address_space<ub>>
    hivm.hir.vadd ins(%u, %h : memref<16xf32, #hivm.address_space<ub>>, memref<16xf16, #hivm.address_space<ub>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
