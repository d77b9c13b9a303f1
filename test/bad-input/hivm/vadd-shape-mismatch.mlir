// Bad input (hivm): vadd of 16 and 32 elements.
// ERROR: operand shape 32 is not compatible with the output shape 16
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %a = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    %b = memref.alloc() : memref<32xf32, #hivm.address_space<ub>>
    hivm.hir.vadd ins(%a, %b : memref<16xf32, #hivm.address_space<ub>>, memref<32xf32, #hivm.address_space<ub>>) outs(%a : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
