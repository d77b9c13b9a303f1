// Bad input (scopes): the 910B has no UB -> L1 path.
// ERROR: copy ub -> cbuf needs a chip with that path (ascend950), the module targets Ascend910B1 (ascend910b)
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @k() {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    %l = memref.alloc() : memref<16xf32, #hivm.address_space<cbuf>>
    hivm.hir.copy ins(%u : memref<16xf32, #hivm.address_space<ub>>) outs(%l : memref<16xf32, #hivm.address_space<cbuf>>)
    return
  }
}
