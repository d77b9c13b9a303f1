// Bad input (ssa): a value of a loop body used after the loop: located at the use (xDSL said "values used but not defined" at the end of the file).
// ERROR: use of undeclared SSA value name %x
module {
  func.func @k(%n: index) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %x = arith.addi %i, %i : index
    }
    return %x : index
  }
}
