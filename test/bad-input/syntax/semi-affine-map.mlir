// Bad input (syntax): a semi-affine layout map (a dim times a symbol), which xDSL's parser
// cannot represent: a located error, not an internal one (ascend-sim reads bishengir's
// semi-affine affine.apply/min/max by rewriting them as arith before parsing).
// ERROR: xDSL cannot read this: Multiplication with non-constant (semi-affine)
module {
  func.func @k(%a: memref<4xf32, affine_map<(d0)[s0] -> (d0 * s0)>>) {
    return
  }
}
