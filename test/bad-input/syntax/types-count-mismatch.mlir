// Bad input (syntax): two values, one type.
// ERROR: expected 2 types, got 1
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    hivm.hir.vadd ins(%u, %u : memref<16xf32, #hivm.address_space<ub>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
