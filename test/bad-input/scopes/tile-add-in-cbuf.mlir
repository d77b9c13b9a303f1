// Bad input (scopes): tile elementwise ops work on ub.
// ERROR: lhs must be in ub, got cbuf
module {
  func.func @k() {
    %l = memref.alloc() : memref<16xf32, #hivm.address_space<cbuf>>
    tile.add ins(%l, %l : memref<16xf32, #hivm.address_space<cbuf>>, memref<16xf32, #hivm.address_space<cbuf>>) outs(%l : memref<16xf32, #hivm.address_space<cbuf>>)
    return
  }
}
