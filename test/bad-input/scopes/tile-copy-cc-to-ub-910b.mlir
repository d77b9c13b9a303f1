// Bad input (scopes): tile.copy cc -> ub has no path on the 910B.
// ARGS: -p convert-tile-to-hivm{chip=ascend910b}
// ERROR: from cc to ub has no hardware path on ascend910b
module {
  func.func @k() {
    %c = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
    %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    tile.copy ins(%c : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
    return
  }
}
