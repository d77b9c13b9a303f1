// Bad input (scopes): the 910B has no L0C -> UB path.
// ERROR: fixpipe cc -> ub needs a chip with that path (ascend950), the module targets Ascend910B1 (ascend910b)
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @k() {
    %c = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
    %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    hivm.hir.fixpipe ins(%c : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
    return
  }
}
