// Bad input (scopes): store moves ub -> gm.
// ERROR: destination must be in gm, got ub (store moves ub -> gm)
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    %w = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    hivm.hir.store ins(%u : memref<16xf32, #hivm.address_space<ub>>) outs(%w : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
