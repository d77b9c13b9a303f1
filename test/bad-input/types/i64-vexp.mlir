// Bad input (types): exp of integers.
// ERROR: operand #0 has element type i64, which ascend910b lacks for vector (legal: i8, i16, i32,
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @k() {
    %u = memref.alloc() : memref<16xi64, #hivm.address_space<ub>>
    hivm.hir.vexp ins(%u : memref<16xi64, #hivm.address_space<ub>>) outs(%u : memref<16xi64, #hivm.address_space<ub>>)
    return
  }
}
