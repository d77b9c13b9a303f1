// ascend-lower-mmad-l0 on a module whose hacc.target names no chip: the error is located at the
// module (as every pass that reads the chip says it), not an unlocated pass failure.
// RUN: not ascend-opt %s -p ascend-lower-mmad-l0 2>&1 | filecheck %s
// RUN: not ascend-opt %s -p 'ascend-lower-mmad-l0{chip=ascend310}' 2>&1 | filecheck %s --check-prefix=OPTION

// CHECK: unknown-target.mlir:[[# @LINE + 3]]:1: error: 'builtin.module' op unknown hacc target 'Ascend310P'
// OPTION: {{^}}error: unknown chip 'ascend310'
// OPTION-NOT: unknown-target.mlir:
module attributes {hacc.target = #hacc.target<"Ascend310P">} {
  func.func @k() {
    return
  }
}
