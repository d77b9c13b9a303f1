// Bad input (ssa): an op that uses its own result.
// ERROR: 'arith.addi' op operand #0 does not dominate this use
module {
  func.func @k(%a: i32) -> i32 {
    %b = arith.addi %b, %a : i32
    return %b : i32
  }
}
