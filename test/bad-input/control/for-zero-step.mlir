// Bad input (control): a loop that never ends.
// ERROR: step must be positive, got 0 (the loop would never end)
module {
  func.func @k() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c0 {
    }

    return
  }
}
