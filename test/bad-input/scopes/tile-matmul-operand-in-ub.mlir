// Bad input (scopes): matmul reads cbuf.
// ERROR: a must be in cbuf, got ub
module {
  func.func @k() {
    %a = memref.alloc() : memref<16x16xf16, #hivm.address_space<ub>>
    %c = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
    %t = arith.constant true
    tile.matmul ins(%a, %a : memref<16x16xf16, #hivm.address_space<ub>>, memref<16x16xf16, #hivm.address_space<ub>>) outs(%c : memref<16x16xf32, #hivm.address_space<cc>>) init(%t : i1)
    return
  }
}
