// Bad input (windows): a versioned UB address (i mod 4) * 64 KiB places its third and fourth versions past UB on the 910B.
// ERROR: places 65536 bytes at ub offsets 0..196608 over the enclosing loops' range, outside the 196608 bytes of ub on ascend910b
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @k() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %bytes = arith.constant 65536 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %v = arith.remui %i, %c4 : index
      %o = arith.muli %v, %bytes : index
      %a = arith.index_cast %o : index to i64
      %p = hivm.hir.pointer_cast(%a) : memref<16384xf32, #hivm.address_space<ub>>
    }
    return
  }
}
