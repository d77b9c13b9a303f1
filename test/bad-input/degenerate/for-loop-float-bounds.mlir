// Bad input (degenerate): an scf.for over f32 bounds.
// ERROR: operand 'lb' at position 0 does not verify
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %a = arith.constant 0.0 : f32
    scf.for %i = %a to %a step %a : f32 {
    }
    return
  }
}
