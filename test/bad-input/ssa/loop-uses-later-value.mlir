// Bad input (ssa): a loop body uses a value its enclosing block defines after the loop (a non-dominating use across region nesting).
// SIM:
// ERROR: 'memref.subview' op operand #1 does not dominate this use
module {
  func.func @k(%g: memref<64xf32, #hivm.address_space<gm>>) attributes {tile.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    scf.for %i = %c0 to %c4 step %c1 {
      %s = memref.subview %g[%off] [16] [1] : memref<64xf32, #hivm.address_space<gm>> to memref<16xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%s : memref<16xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    }
    %off = arith.constant 16 : index
    return
  }
}
