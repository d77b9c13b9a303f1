// Bad input (verifier): tile.add on 16 and 32 elements.
// ERROR: lhs and rhs shapes differ: 16 vs 32
module {
  func.func @k() {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    %w = memref.alloc() : memref<32xf32, #hivm.address_space<ub>>
    tile.add ins(%u, %w : memref<16xf32, #hivm.address_space<ub>>, memref<32xf32, #hivm.address_space<ub>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
