// Bad input (capacity): a negative on-chip address.
// ERROR: places 64 bytes at ub offset -64, outside the 196608 bytes of ub on ascend910b
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @k() {
    %a = arith.constant -64 : i64
    %p = hivm.hir.pointer_cast(%a) : memref<16xf32, #hivm.address_space<ub>>
    return
  }
}
