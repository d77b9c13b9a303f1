// Bad input (scopes): mmadL1 reads A from cbuf.
// ERROR: operand A must be in cbuf, got ub (mmadL1 reads A and B from cbuf and accumulates C in cc)
module {
  func.func @k() {
    %a = memref.alloc() : memref<16x16xf16, #hivm.address_space<ub>>
    %b = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
    %c = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
    %t = arith.constant true
    %m = arith.constant 16 : index
    hivm.hir.mmadL1 ins(%a, %b, %t, %m, %m, %m : memref<16x16xf16, #hivm.address_space<ub>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<16x16xf32, #hivm.address_space<cc>>)
    return
  }
}
