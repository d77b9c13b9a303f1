// Bad input (ssa): a loop's initial value is the loop's own result.
// ERROR: 'scf.for' op operand #3 does not dominate this use
module {
  func.func @k(%n: index) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %r) -> (index) {
      scf.yield %acc : index
    }
    return %r : index
  }
}
