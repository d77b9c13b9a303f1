// Bad input (scopes): nd2nz moves gm -> cbuf.
// ERROR: destination must be in cbuf, got ub (nd2nz moves gm -> cbuf)
module {
  func.func @k(%g: memref<16x16xf16, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16x16xf16, #hivm.address_space<ub>>
    hivm.hir.nd2nz ins(%g : memref<16x16xf16, #hivm.address_space<gm>>) outs(%u : memref<16x16xf16, #hivm.address_space<ub>>)
    return
  }
}
