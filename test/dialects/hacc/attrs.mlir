// hacc function/module attributes and the hivm core-type attributes of a MIX kernel,
// spelled as bishengir-opt 1.2.0 prints them.
// RUN: ascend-opt %s | filecheck %s
// RUN: ascend-opt %s | ascend-opt | filecheck %s
// RUN: ascend-opt %s --print-op-generic | ascend-opt | filecheck %s

// CHECK: builtin.module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">, hivm.module_core_type = #hivm.module_core_type<MIX>}
module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">, hivm.module_core_type = #hivm.module_core_type<MIX>} {
  // CHECK: func.func @k_mix_aic() attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>, hivm.part_of_mix}
  func.func @k_mix_aic() attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>, hivm.part_of_mix} {
    return
  }
  // CHECK: func.func @k_mix_aiv() attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix}
  func.func @k_mix_aiv() attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
    return
  }
  // CHECK: func.func @host() attributes {hacc.function_kind = #hacc.function_kind<HOST>, hivm.func_core_type = #hivm.func_core_type<MIX>}
  func.func @host() attributes {hacc.function_kind = #hacc.function_kind<HOST>, hivm.func_core_type = #hivm.func_core_type<MIX>} {
    return
  }
  // Kernel argument kinds; a MIX part sets the cross-core flag base address on entry.
  // CHECK: func.func @k_args(%ffts: i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}, %x: memref<16xf32, #hivm.address_space<gm>> {hacc.arg_type = #hacc.arg_type<input_and_output>}, %w: memref<16xi8, #hivm.address_space<gm>> {hacc.arg_type = #hacc.arg_type<workspace>})
  func.func @k_args(%ffts: i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}, %x: memref<16xf32, #hivm.address_space<gm>> {hacc.arg_type = #hacc.arg_type<input_and_output>}, %w: memref<16xi8, #hivm.address_space<gm>> {hacc.arg_type = #hacc.arg_type<workspace>}) attributes {hacc.entry} {
    // CHECK-NEXT: hivm.hir.set_ffts_base_addr %ffts
    hivm.hir.set_ffts_base_addr %ffts
    return
  }
  // Core-type and marker attributes on ops and values.
  // CHECK: func.func @core_types() attributes {a = #hivm.tcore_type<CUBE_OR_VECTOR>, b = #hivm.part_of_mix, c = #hacc.target<"Ascend910B1">}
  func.func @core_types() attributes {a = #hivm.tcore_type<CUBE_OR_VECTOR>, b = #hivm.part_of_mix, c = #hacc.target<"Ascend910B1">} {
    return
  }
}
