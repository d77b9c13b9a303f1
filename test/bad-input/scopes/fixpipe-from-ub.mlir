// Bad input (scopes): fixpipe reads cc.
// ERROR: source must be in cc, got ub (fixpipe moves cc -> gm, cbuf or ub)
module {
  func.func @k(%g: memref<16x16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    hivm.hir.fixpipe ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%g : memref<16x16xf32, #hivm.address_space<gm>>)
    return
  }
}
