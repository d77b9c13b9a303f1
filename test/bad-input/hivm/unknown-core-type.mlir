// Bad input (hivm): an unknown hivm.func_core_type.
// ERROR: Expected `AIC`, `AIV`, `MIX`, or `AIC_OR_AIV`
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) attributes {hivm.func_core_type = #hivm.func_core_type<GPU>} {
    return
  }
}
