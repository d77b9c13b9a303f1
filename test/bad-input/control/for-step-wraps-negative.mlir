// Bad input (control): an index constant is a signed 64-bit value: 2**63 is -2**63 as a
// step (the simulator always read it so; the compiler's check took it as positive).
// ERROR: step must be positive, got -9223372036854775808 (the loop would never end)
module {
  func.func @k() {
    %big = arith.constant 9223372036854775808 : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %big {
    }

    return
  }
}
