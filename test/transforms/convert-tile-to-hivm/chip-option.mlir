// The chip= option sets hacc.target (over the module's own), by chip name or by
// bishengir target name.
// RUN: ascend-opt %s -p 'convert-tile-to-hivm{chip=ascend910b}' | filecheck %s --check-prefix=NAME
// RUN: ascend-opt %s -p 'convert-tile-to-hivm{chip=Ascend910B2}' | filecheck %s --check-prefix=TARGET
// RUN: ascend-opt %s -p 'convert-tile-to-hivm{chip=ascend950}' | filecheck %s --check-prefix=A5

// NAME: builtin.module attributes {hacc.target = #hacc.target<"Ascend910B1">}
// TARGET: builtin.module attributes {hacc.target = #hacc.target<"Ascend910B2">}
// A5: builtin.module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">}
module attributes {hacc.target = #hacc.target<"Ascend910B3">} {
  func.func @k() attributes {tile.kernel} {
    return
  }
}
