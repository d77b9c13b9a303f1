// Bad input (hivm): a load whose destination is in GM.
// ERROR: destination must be in ub, got gm
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    hivm.hir.load ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%g : memref<16xf32, #hivm.address_space<gm>>)
    return
  }
}
