// Bad input (verifier): C must be M x N.
// ERROR: c must be 16x16 (M x N), got 16x8
module {
  func.func @k() {
    %a = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
    %c = memref.alloc() : memref<16x8xf32, #hivm.address_space<cc>>
    %t = arith.constant true
    tile.matmul ins(%a, %a : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>) outs(%c : memref<16x8xf32, #hivm.address_space<cc>>) init(%t : i1)
    return
  }
}
