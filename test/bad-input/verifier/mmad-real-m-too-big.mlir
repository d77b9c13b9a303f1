// Bad input (verifier): real_m beyond the tile.
// ERROR: real_m = 17 is outside 1..16
module {
  func.func @k() {
    %a = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
    %b = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
    %c = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
    %t = arith.constant true
    %m = arith.constant 17 : index
    hivm.hir.mmadL1 ins(%a, %b, %t, %m, %m, %m : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<16x16xf32, #hivm.address_space<cc>>)
    return
  }
}
