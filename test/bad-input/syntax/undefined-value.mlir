// Bad input (syntax): %u is never defined.
// ERROR: use of undeclared SSA value name %u
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    hivm.hir.load ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
