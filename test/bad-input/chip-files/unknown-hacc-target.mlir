// Bad input (chip-files): a module for a target nobody knows.
// ARGS: -p ascend-estimate-latency
// ERROR: unknown hacc target 'Ascend310P' (known: Ascend910B1, Ascend910B2, Ascend910B2C,
module attributes {hacc.target = #hacc.target<"Ascend310P">} {
  func.func @k() {

    return
  }
}
