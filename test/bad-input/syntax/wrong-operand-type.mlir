// Bad input (syntax): %g is a memref, not an index.
// ERROR: operand is used with type index, but has been previously used or defined with type
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %x = arith.addi %g, %g : index
    return
  }
}
