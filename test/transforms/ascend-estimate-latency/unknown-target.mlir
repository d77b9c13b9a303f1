// RUN: not ascend-opt %s -p ascend-estimate-latency 2>&1 | filecheck %s --check-prefix=ERR

// ERR: unknown-target.mlir:4:1: error: 'builtin.module' op unknown hacc target 'Ascend310P' (known: {{.*}}Ascend910B1
module attributes {hacc.target = #hacc.target<"Ascend310P">} {
  func.func @k() {
    return
  }
}
