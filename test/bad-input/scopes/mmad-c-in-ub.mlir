// Bad input (scopes): mmadL1 accumulates in cc.
// ERROR: operand C must be in cc, got ub (mmadL1 reads A and B from cbuf and accumulates C in cc)
module {
  func.func @k() {
    %a = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
    %b = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
    %c = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %t = arith.constant true
    %m = arith.constant 16 : index
    hivm.hir.mmadL1 ins(%a, %b, %t, %m, %m, %m : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<16x16xf32, #hivm.address_space<ub>>)
    return
  }
}
