// Bad input (verifier): store keeps the shape.
// ERROR: source and destination shapes differ (8 vs 16)
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
    hivm.hir.store ins(%u : memref<8xf32, #hivm.address_space<ub>>) outs(%g : memref<16xf32, #hivm.address_space<gm>>)
    return
  }
}
