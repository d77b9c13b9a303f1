module {
  func.func @k(%x: memref<16xf16, #hivm.address_space<gm>>) attributes {hacc.entry} {
    %u = memref.alloc() : memref<16xf16, #hivm.address_space<cbuf>>
    hivm.hir.load ins(%x : memref<16xf16, #hivm.address_space<gm>>) outs(%u : memref<16xf16, #hivm.address_space<cbuf>>)
    return
  }
}
