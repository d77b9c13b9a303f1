// Bad input (verifier): copy does not convert.
// ERROR: source and dest element types differ: f32 vs f16
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf16, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf16, #hivm.address_space<ub>>)
    return
  }
}
