// Bad input (ssa): a loop's step is defined only inside the loop's own body (found by
// bench/safety/fuzz_inputs.py, softmax seed 2: two lines swapped); xDSL resolved the
// forward use before the loop existed and the verifier failed on the placeholder, an
// internal error. Values of a region are not visible to the op that holds it.
// SIM:
// ERROR: use of undeclared SSA value name %c1
module {
  func.func @k(%n: index) {
    %c0 = arith.constant 0 : index
    scf.for %i = %c0 to %n step %c1 {
      %c1 = arith.constant 1 : index
    }
    return
  }
}
