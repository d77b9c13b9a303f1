// The text follows the bishengir build of the module's target: the a5 build (Ascend 950)
// requires vreduce's `unsigned_src` flag, the default build rejects it.
// RUN: ascend-opt %s -t npuir | filecheck %s --check-prefix=A5
// RUN: ascend-opt %s -t 'npuir{syntax=default}' | filecheck %s --check-prefix=DEFAULT
// RUN: sed 's/Ascend950PR_9599/Ascend910B1/' %s | ascend-opt -t npuir | filecheck %s --check-prefix=DEFAULT
// RUN: sed 's/Ascend950PR_9599/Ascend910B1/' %s | ascend-opt -t 'npuir{syntax=a5}' | filecheck %s --check-prefix=A5
// RUN: not ascend-opt %s -t 'npuir{syntax=a3}' 2>&1 | filecheck %s --check-prefix=BAD
// In MLIR's generic form the a5 build's vreduce has three operand segments (src, dst,
// temp_buffer), the default build's four (+ indices):
// RUN: ascend-opt %s -t 'npuir{generic=true}' | filecheck %s --check-prefix=GENERIC-A5
// RUN: ascend-opt %s -t 'npuir{syntax=default generic=true}' | filecheck %s --check-prefix=GENERIC-DEFAULT

// A5: hivm.hir.vreduce <sum> ins(%{{.*}} : memref<16x64xf32, #hivm.address_space<ub>>) outs(%{{.*}} : memref<16x1xf32, #hivm.address_space<ub>>) unsigned_src = false reduce_dims = [1]
// DEFAULT: hivm.hir.vreduce <sum> ins(%{{.*}} : memref<16x64xf32, #hivm.address_space<ub>>) outs(%{{.*}} : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
// GENERIC-A5: "hivm.hir.vreduce"(%{{.*}}, %{{.*}}) <{arith = #hivm.reduce_op<sum>, operandSegmentSizes = array<i32: 1, 1, 0>, reduce_dims = array<i64: 1>, unsigned_src = false}>
// GENERIC-DEFAULT: "hivm.hir.vreduce"(%{{.*}}, %{{.*}}) <{arith = #hivm.reduce_op<sum>, operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduce_dims = array<i64: 1>}>
// BAD: unknown syntax 'a3' (one of auto, a5, default)
builtin.module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  func.func @k() attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %u = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
    %r = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
    hivm.hir.vreduce <sum> ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
    func.return
  }
}
