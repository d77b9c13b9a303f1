// Bad input (capacity): a planned buffer that ends past UB.
// ERROR: places 4096 bytes at ub offset 196000, outside the 196608 bytes of ub on ascend910b
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @k() {
    %a = arith.constant 196000 : i64
    %p = hivm.hir.pointer_cast(%a) : memref<1024xf32, #hivm.address_space<ub>>
    return
  }
}
