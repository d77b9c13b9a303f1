// RUN: ascend-opt %s -p ascend-estimate-latency | filecheck %s

// Without chip=, the module's hacc.target decides, and the pass leaves it as it is.
// CHECK: builtin.module attributes {hacc.target = #hacc.target<"Ascend910B2">}
// CHECK: hivm.hir.nd2nz {ascend.task = #ascend.task<latency = 196, ii = 64>}
module attributes {hacc.target = #hacc.target<"Ascend910B2">} {
  func.func @k(%g: memref<16x16xf16, #hivm.address_space<gm>>) {
    %l1 = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
    hivm.hir.nd2nz ins(%g : memref<16x16xf16, #hivm.address_space<gm>>) outs(%l1 : memref<16x16xf16, #hivm.address_space<cbuf>>)
    return
  }
}
