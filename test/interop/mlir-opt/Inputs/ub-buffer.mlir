// A buffer in the unified buffer (input of generic-roundtrip.mlir).
func.func @f() {
  %u = memref.alloc() : memref<16xf16, #hivm.address_space<ub>>
  return
}
