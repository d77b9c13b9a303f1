// Bad input (degenerate): an scf.for whose bound is an f32 NaN cast to index.
// ERROR: index should be of base attribute integer_type
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %n = arith.constant 0x7FC00000 : f32
    %i = arith.fptosi %n : f32 to index
    return
  }
}
