// A user kernel (hivm.hir.custom) has no semantics here: the simulator stops at it with a
// located error instead of guessing what the callee computes.
// RUN: not ascend-sim %s 2>&1 | filecheck %s
// CHECK: custom-op-refused.mlir:9:5: error: 'hivm.hir.custom' op the simulator has no semantics for 'hivm.hir.custom'
module attributes {hacc.target = #hacc.target<"Ascend910B3">} {
  func.func @k(%a: memref<16xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%a : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    hivm.hir.custom {hivm.pipe = #hivm.pipe<PIPE_V>, hivm.tcore_type = #hivm.tcore_type<VECTOR>, symbol = "f"} "user.f" ins(%u : memref<16xf32, #hivm.address_space<ub>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%u : memref<16xf32, #hivm.address_space<ub>>) outs(%a : memref<16xf32, #hivm.address_space<gm>>)
    return
  }
}
