// Bad input (verifier): C is not M x N.
// ERROR: C is 16x32 but A x B is 16x16
module {
  func.func @k() {
    %a = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
    %b = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
    %c = memref.alloc() : memref<16x32xf32, #hivm.address_space<cc>>
    %t = arith.constant true
    %m = arith.constant 16 : index
    hivm.hir.mmadL1 ins(%a, %b, %t, %m, %m, %m : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<16x32xf32, #hivm.address_space<cc>>)
    return
  }
}
