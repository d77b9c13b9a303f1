// --verify-diagnostics fails (exit 1) when an expected error is not produced or an
// unexpected one is, and says which.
// RUN: not ascend-opt %s --verify-diagnostics 2>&1 | filecheck %s

func.func @f(%a: i32) -> i64 {
  // expected-error @+1 {{a message that is never produced}}
  func.return %a : i32
}
// CHECK-DAG: error: unexpected error: 'func.return' op
// CHECK-DAG: verify-diagnostics-mismatch.mlir:6:1: error: expected error "a message that is never produced" was not produced
