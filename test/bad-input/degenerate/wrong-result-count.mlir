// Bad input (degenerate): an arith.addf with two results declared.
// ERROR: Operation has 1 results, but was given 2 to bind
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %a = arith.constant 1.0 : f32
    %b, %c = arith.addf %a, %a : f32
    return
  }
}
