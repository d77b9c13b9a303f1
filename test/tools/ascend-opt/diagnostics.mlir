// Bad input is reported as file:line:col: error, with exit code 1 and no traceback.
// RUN: not ascend-opt %s --split-input-file 2>&1 | filecheck %s
// RUN: ascend-opt %s --split-input-file --verify-diagnostics

func.func @type_mismatch(%a: i32) -> i64 {
  // expected-error @+1 {{'func.return' op Expected arguments to have the same types as the function output types}}
  func.return %a : i32
}
// CHECK: diagnostics.mlir:[[# @LINE - 2]]:3: error: 'func.return' op Expected arguments
// CHECK-NEXT: func.return %a : i32
// CHECK-NEXT: ^
// CHECK-NOT: Traceback

// -----

func.func @operand_type(%a: i64) {
  // expected-error @+1 {{operand is used with type i32, but has been previously used or defined with type i64}}
  %x = arith.addi %a, %a : i32
  func.return
}
// CHECK: diagnostics.mlir:[[# @LINE - 3]]:19: error: operand is used with type i32
