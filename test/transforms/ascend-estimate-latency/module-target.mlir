// RUN: ascend-opt %s -p ascend-estimate-latency --split-input-file --verify-diagnostics | filecheck %s

// Without chip=, the module's hacc.target decides: dav-c220 has no L0C -> UB path.
module attributes {hacc.target = #hacc.target<"Ascend910B2">} {
  func.func @k(%acc: memref<128x128xf32, #hivm.address_space<cc>>, %u: memref<128x128xf32, #hivm.address_space<ub>>) {
    // expected-error @+1 {{chip ascend910b has no copy path cc -> ub}}
    hivm.hir.fixpipe ins(%acc : memref<128x128xf32, #hivm.address_space<cc>>) outs(%u : memref<128x128xf32, #hivm.address_space<ub>>)
    return
  }
}

// -----

// The same op on the 950 target is fine.
// CHECK: hivm.hir.fixpipe {ascend.latency = 570 : i64, ascend.ii = 514 : i64}
module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  func.func @k(%acc: memref<128x128xf32, #hivm.address_space<cc>>, %u: memref<128x128xf32, #hivm.address_space<ub>>) {
    hivm.hir.fixpipe ins(%acc : memref<128x128xf32, #hivm.address_space<cc>>) outs(%u : memref<128x128xf32, #hivm.address_space<ub>>)
    return
  }
}
