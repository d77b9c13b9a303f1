// REQUIRES: bishengir
// bishengir-compile (A3) adds host functions to triton-ascend's kernels, marked with
// hacc.host_func_type: ascend-opt reads and prints the attribute as bishengir-opt does
// (bishengir-opt-a5 1.2.0 knows no infer_task_type_function: the a5 dumps carry none).
// RUN: %bishengir_opt %s | grep host_func_type > %t.bishengir
// RUN: ascend-opt %s | grep host_func_type > %t.ascend
// RUN: diff %t.bishengir %t.ascend
// RUN: ascend-opt %s | filecheck %s

// CHECK: hacc.host_func_type = #hacc.host_func_type<infer_task_type_function>
module {
  func.func @add_kernel_infer_task_type_function() -> i8 attributes {hacc.function_kind = #hacc.function_kind<HOST>, hacc.host_func_type = #hacc.host_func_type<infer_task_type_function>} {
    %c10_i8 = arith.constant 10 : i8
    return %c10_i8 : i8
  }
}
