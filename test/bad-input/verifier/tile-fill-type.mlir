// Bad input (verifier): an f16 fill of f32 data.
// ERROR: value type f16 differs from element type f32
module {
  func.func @k() {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    %s = arith.constant 1.0 : f16
    tile.fill ins(%s : f16) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
