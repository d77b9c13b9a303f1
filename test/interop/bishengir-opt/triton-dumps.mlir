// REQUIRES: bishengir-a5
// The hivm text bishengir-compile-a5 made of triton-ascend's vector add (test/sim/Inputs/triton,
// see tools/triton-dumps): ascend-opt reads load's eviction_policy and prints every hivm line byte
// for byte as bishengir-opt-a5 does. (host-func-type.mlir: the A3 dumps' hacc.host_func_type.)
// RUN: %bishengir_opt_a5 %s | grep -E "hivm\.hir\." | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.bishengir
// RUN: ascend-opt %s | grep -E "hivm\.hir\." | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.ascend
// RUN: diff %t.bishengir %t.ascend
// RUN: ascend-opt %s | filecheck %s

// CHECK: hivm.hir.load ins({{.*}}) outs({{.*}}) pad_mode = <PadValue> pad_value = {{%[a-z0-9_]+}} : f32 eviction_policy = <EvictFirst>
module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  func.func @k(%x: memref<64xf32, #hivm.address_space<gm>>, %y: memref<64xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %cst = arith.constant 0.000000e+00 : f32
    %c0 = arith.constant 0 : i64
    %u = hivm.hir.pointer_cast(%c0) : memref<64xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>) pad_mode = <PadValue> pad_value = %cst : f32 eviction_policy = <EvictFirst>
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.store ins(%u : memref<64xf32, #hivm.address_space<ub>>) outs(%y : memref<64xf32, #hivm.address_space<gm>>)
    return
  }
}
