// Bad input (control): scf.for steps are positive.
// ERROR: step must be positive, got -1 (the loop would never end)
module {
  func.func @k() {
    %m1 = arith.constant -1 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %m1 {
    }

    return
  }
}
