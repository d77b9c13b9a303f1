// Bad input (degenerate): `{ }` is not a declaration (that has no braces): mlir-opt says "expected non-empty function body" at the brace.
// ERROR: expected non-empty function body
module {
  func.func @k() { }
}
