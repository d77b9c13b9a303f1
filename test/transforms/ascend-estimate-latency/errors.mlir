// RUN: not ascend-opt %s -p 'ascend-estimate-latency{chip=ascend310}' 2>&1 | filecheck %s --check-prefix=CHIP
// RUN: not ascend-opt %s -p 'ascend-estimate-latency{chip-file="/nonexistent/chip.toml"}' 2>&1 | filecheck %s --check-prefix=FILE
// RUN: ascend-opt %s -p ascend-estimate-latency --verify-diagnostics

// CHIP: error: unknown chip 'ascend310' (built-in chips: ascend910b, ascend950
// FILE: error: cannot read chip file /nonexistent/chip.toml
func.func @dynamic(%g: memref<?xf32, #hivm.address_space<gm>>, %u: memref<?xf32, #hivm.address_space<ub>>) {
  // expected-error @+1 {{cannot estimate the latency of an operand with a dynamic shape}}
  hivm.hir.load ins(%g : memref<?xf32, #hivm.address_space<gm>>) outs(%u : memref<?xf32, #hivm.address_space<ub>>)
  return
}
