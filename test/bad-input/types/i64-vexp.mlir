// Bad input (types): exp of integers.
// ERROR: exp computes on f16, f32 only, got i64 (bishengir's verifier refuses it)
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @k() {
    %u = memref.alloc() : memref<16xi64, #hivm.address_space<ub>>
    hivm.hir.vexp ins(%u : memref<16xi64, #hivm.address_space<ub>>) outs(%u : memref<16xi64, #hivm.address_space<ub>>)
    return
  }
}
