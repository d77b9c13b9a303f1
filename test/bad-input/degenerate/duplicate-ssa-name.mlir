// Bad input (degenerate): one SSA name defined twice.
// ERROR: SSA value %a is already defined
module {
  func.func @k() {
    %a = arith.constant 1 : i32
    %a = arith.constant 2 : i32
    return
  }
}
