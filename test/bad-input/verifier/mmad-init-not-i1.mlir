// Bad input (verifier): init is a condition.
// ERROR: init condition must be i1, got i32
module {
  func.func @k() {
    %a = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
    %b = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
    %c = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
    %t = arith.constant 1 : i32
    %m = arith.constant 16 : index
    hivm.hir.mmadL1 ins(%a, %b, %t, %m, %m, %m : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i32, index, index, index) outs(%c : memref<16x16xf32, #hivm.address_space<cc>>)
    return
  }
}
