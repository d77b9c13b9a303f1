// Bad input (hivm): vadd with one input.
// ERROR: expects 2 input(s) and 1 output, got 1 and 1
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %a = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    hivm.hir.vadd ins(%a : memref<16xf32, #hivm.address_space<ub>>) outs(%a : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
