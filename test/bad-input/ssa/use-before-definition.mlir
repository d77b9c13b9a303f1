// Bad input (ssa): a use before its definition in the same block (xDSL resolves the forward reference; MLIR's verifier refuses it).
// SIM:
// ERROR: 'tile.add' op operand #1 does not dominate this use
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) attributes {tile.kernel} {
    %a = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    %c = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%a : memref<16xf32, #hivm.address_space<ub>>)
    tile.add ins(%a, %b : memref<16xf32, #hivm.address_space<ub>>, memref<16xf32, #hivm.address_space<ub>>) outs(%c : memref<16xf32, #hivm.address_space<ub>>)
    %b = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%c : memref<16xf32, #hivm.address_space<ub>>) outs(%g : memref<16xf32, #hivm.address_space<gm>>)
    return
  }
}
