// Bad input (hivm): mmadL1 without its m, k, n.
// ERROR: expected ins(%a, %b, %init, %m, %k, %n[, %bias] : types...)
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %t = arith.constant true
    %a = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
    %c = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
    hivm.hir.mmadL1 ins(%a, %a, %t : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1) outs(%c : memref<16x16xf32, #hivm.address_space<cc>>)
    return
  }
}
