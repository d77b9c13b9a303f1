// Bad input (scopes): the 910B has no UB -> L1 path.
// ERROR: copy ub -> cbuf needs an Ascend 950 target, the module targets Ascend910B1
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @k() {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    %l = memref.alloc() : memref<16xf32, #hivm.address_space<cbuf>>
    hivm.hir.copy ins(%u : memref<16xf32, #hivm.address_space<ub>>) outs(%l : memref<16xf32, #hivm.address_space<cbuf>>)
    return
  }
}
