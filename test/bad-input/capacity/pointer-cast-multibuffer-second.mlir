// Bad input (capacity): the second version of a multi-buffer is out of UB.
// ERROR: places 16384 bytes at ub offset 190000, outside the 196608 bytes of ub on ascend910b
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @k() {
    %a = arith.constant 0 : i64
    %b = arith.constant 190000 : i64
    %p = hivm.hir.pointer_cast(%a, %b) : memref<4096xf32, #hivm.address_space<ub>>
    return
  }
}
