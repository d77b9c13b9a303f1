// Bad input (scopes): vector output in cbuf.
// ERROR: vector output must be in ub, got cbuf (vector ops work on the unified buffer)
module {
  func.func @k() {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    %l = memref.alloc() : memref<16xf32, #hivm.address_space<cbuf>>
    hivm.hir.vexp ins(%u : memref<16xf32, #hivm.address_space<ub>>) outs(%l : memref<16xf32, #hivm.address_space<cbuf>>)
    return
  }
}
