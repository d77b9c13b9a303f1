// Bad input (scopes): load moves gm -> ub.
// ERROR: destination must be in ub, got cbuf (load moves gm -> ub)
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<cbuf>>
    hivm.hir.load ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<cbuf>>)
    return
  }
}
