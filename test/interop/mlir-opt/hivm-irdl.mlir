// REQUIRES: mlir-opt
// Upstream mlir-opt 22 verifies hivm IR against the exported IRDL (dialects/*.irdl.mlir)
// and the result reads back into ascend-opt unchanged. IRDL cannot name ops with dots or
// capitals, nor give IRDL ops properties, so the IR goes through the IRDL form
// (`ascend-opt -t irdl`): `hivm.hir_load`, properties as attributes,
// `#hivm.address_space<"ub">`.
// RUN: cat %project/dialects/hivm.irdl.mlir %project/dialects/hacc.irdl.mlir %project/dialects/annotation.irdl.mlir > %t.irdl.mlir
// RUN: ascend-opt %s -t irdl | %mlir_opt --irdl-file=%t.irdl.mlir | filecheck %s
// RUN: ascend-opt %s | ascend-opt -t irdl | %mlir_opt --irdl-file=%t.irdl.mlir --mlir-print-op-generic | %python -m ascend_mlir.targets.irdl --from-irdl-form | ascend-opt | filecheck %s --check-prefix=BACK

// CHECK: module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">}
// BACK: builtin.module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">}
module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  // CHECK-LABEL: func.func @dma
  // CHECK-SAME: attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<"DEVICE">}
  // BACK-LABEL: func.func @dma
  // BACK-SAME: attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>}
  func.func @dma(%g: memref<16x64xf16, #hivm.address_space<gm>>, %pad: f16, %n: index)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %u = memref.alloc() : memref<16x64xf16, #hivm.address_space<ub>>
    %v = memref.alloc() : memref<16x64xf16, #hivm.address_space<ub>>
    %l1 = memref.alloc() : memref<16x64xf16, #hivm.address_space<cbuf>>
    // CHECK: "hivm.hir_load"(%{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>} : (memref<16x64xf16, #hivm.address_space<"gm">>, memref<16x64xf16, #hivm.address_space<"ub">>) -> ()
    // BACK: hivm.hir.load ins(%{{.*}} : memref<16x64xf16, #hivm.address_space<gm>>) outs(%{{.*}} : memref<16x64xf16, #hivm.address_space<ub>>)
    hivm.hir.load ins(%g : memref<16x64xf16, #hivm.address_space<gm>>) outs(%u : memref<16x64xf16, #hivm.address_space<ub>>)
    // CHECK: "hivm.hir_load"({{.*}}) {init_out_buffer = true, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>, pad_mode = #hivm.padmode<"PadValue">}
    // BACK: hivm.hir.load ins({{.*}}) outs({{.*}}) pad_mode = <PadValue> pad_value = %{{.*}} : f16 left_padding_num = %{{.*}} : index init_out_buffer = true
    hivm.hir.load ins(%g : memref<16x64xf16, #hivm.address_space<gm>>) outs(%u : memref<16x64xf16, #hivm.address_space<ub>>) pad_mode = <PadValue> pad_value = %pad : f16 left_padding_num = %n : index init_out_buffer = true
    // CHECK: "hivm.hir_store"({{.*}}) {atomic_kind = #hivm.atomic_kind<"add">}
    // BACK: hivm.hir.store ins({{.*}}) outs({{.*}}) atomic = <add>
    hivm.hir.store ins(%u : memref<16x64xf16, #hivm.address_space<ub>>) outs(%g : memref<16x64xf16, #hivm.address_space<gm>>) atomic = <add>
    // CHECK: "hivm.hir_copy"
    // BACK: hivm.hir.copy ins(%{{.*}} : memref<16x64xf16, #hivm.address_space<ub>>) outs(%{{.*}} : memref<16x64xf16, #hivm.address_space<cbuf>>)
    hivm.hir.copy ins(%u : memref<16x64xf16, #hivm.address_space<ub>>) outs(%l1 : memref<16x64xf16, #hivm.address_space<cbuf>>)
    // CHECK: "hivm.hir_nd2nz"({{.*}}) {dst_continuous, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
    // BACK: hivm.hir.nd2nz {dst_continuous} ins(
    hivm.hir.nd2nz {dst_continuous} ins(%g : memref<16x64xf16, #hivm.address_space<gm>>) outs(%l1 : memref<16x64xf16, #hivm.address_space<cbuf>>)
    // CHECK: "annotation.mark"(%{{.*}}) {hivm.multi_buffer = 2 : i32}
    // BACK: annotation.mark %{{.*}} {hivm.multi_buffer = 2 : i32} : memref<16x64xf16, #hivm.address_space<ub>>
    annotation.mark %u {hivm.multi_buffer = 2 : i32} : memref<16x64xf16, #hivm.address_space<ub>>
    return
  }

  // CHECK-LABEL: func.func @cube
  // BACK-LABEL: func.func @cube
  func.func @cube(%out: memref<64x64xf32, #hivm.address_space<gm>>, %init: i1) {
    %a = memref.alloc() : memref<64x32xf16, #hivm.address_space<cbuf>>
    %b = memref.alloc() : memref<64x32xf16, #hivm.address_space<cbuf>>
    %c = memref.alloc() : memref<64x64xf32, #hivm.address_space<cc>>
    %half = memref.alloc() : memref<32x64xf32, #hivm.address_space<ub>>
    %c64 = arith.constant 64 : index
    %c32 = arith.constant 32 : index
    // CHECK: "hivm.hir_mmad_l1"({{.*}}) {b_transpose, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0, 0>}
    // BACK: hivm.hir.mmadL1 {b_transpose} ins(
    hivm.hir.mmadL1 {b_transpose} ins(%a, %b, %init, %c64, %c32, %c64 : memref<64x32xf16, #hivm.address_space<cbuf>>, memref<64x32xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>)
    // CHECK: "hivm.hir_fixpipe"({{.*}}) {dma_mode = #hivm.dma_mode<"nz2nd">, dual_dst_mode = #hivm.fixpipe_dual_dst_mode<"ROW_SPLIT">, {{.*}}pre_relu = #hivm.fixpipe_pre_relu_mode<"NORMAL_RELU">}
    // BACK: hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>, pre_relu = #hivm.fixpipe_pre_relu_mode<NORMAL_RELU>} ins({{.*}}) outs({{.*}}) dual_dst_mode = <ROW_SPLIT>
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>, pre_relu = #hivm.fixpipe_pre_relu_mode<NORMAL_RELU>} ins(%c : memref<64x64xf32, #hivm.address_space<cc>>) outs(%half : memref<32x64xf32, #hivm.address_space<ub>>) dual_dst_mode = <ROW_SPLIT>
    return
  }

  // CHECK-LABEL: func.func @vector
  // BACK-LABEL: func.func @vector
  func.func @vector(%s: f32) {
    %x = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
    %z = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
    %r = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
    %h = memref.alloc() : memref<16x64xf16, #hivm.address_space<ub>>
    %ri = memref.alloc() : memref<16x1xi32, #hivm.address_space<ub>>
    // One IRDL operand per input: src_0, src_1, dst_0, then the optional temp_buffer.
    // CHECK: "hivm.hir_vadd"(%{{.*}}, %{{.*}}, %{{.*}}) {broadcast = array<i64>, operandSegmentSizes = array<i32: 1, 1, 1, 0>, transpose = array<i64>}
    // BACK: hivm.hir.vadd ins(%{{.*}}, %{{.*}} : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%{{.*}} : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%x, %x : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    // A memref and a scalar in one `ins` (each IRDL operand has its own constraint).
    // CHECK: "hivm.hir_vmul"(%{{.*}}, %{{.*}}, %{{.*}}) {{{.*}}operandSegmentSizes = array<i32: 1, 1, 1, 0>{{.*}}} : (memref<16x64xf32, #hivm.address_space<"ub">>, f32, memref<16x64xf32, #hivm.address_space<"ub">>) -> ()
    // BACK: hivm.hir.vmul ins(%{{.*}}, %{{.*}} : memref<16x64xf32, #hivm.address_space<ub>>, f32) outs(%{{.*}} : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vmul ins(%x, %s : memref<16x64xf32, #hivm.address_space<ub>>, f32) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    // CHECK: "hivm.hir_vexp"
    // BACK: hivm.hir.vexp ins(
    hivm.hir.vexp ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    // CHECK: "hivm.hir_vcast"({{.*}}) {{{.*}}round_mode = #hivm.round_mode<"floor">
    // BACK: hivm.hir.vcast ins({{.*}}) outs({{.*}}) round_mode = <floor>
    hivm.hir.vcast ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%h : memref<16x64xf16, #hivm.address_space<ub>>) round_mode = <floor>
    // CHECK: "hivm.hir_vbrc"
    // BACK: hivm.hir.vbrc ins(%{{.*}} : memref<16x1xf32, #hivm.address_space<ub>>) outs(%{{.*}} : memref<16x64xf32, #hivm.address_space<ub>>) broadcast_dims = [1]
    hivm.hir.vbrc ins(%r : memref<16x1xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>) broadcast_dims = [1]
    // CHECK: "hivm.hir_vreduce"({{.*}}) {{{.*}}arith = #hivm.reduce_op<"max">
    // BACK: hivm.hir.vreduce <max> ins({{.*}}) outs({{.*}}) reduce_dims = [1]
    hivm.hir.vreduce <max> ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
    // Values and indices differ in element type: dst_0 and the optional dst_1.
    // CHECK: "hivm.hir_vreduce"({{.*}}) {{{.*}}operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>
    // BACK: hivm.hir.vreduce <max_with_index_left> ins({{.*}}) outs(%{{.*}}, %{{.*}} : memref<16x1xf32, #hivm.address_space<ub>>, memref<16x1xi32, #hivm.address_space<ub>>) reduce_dims = [1]
    hivm.hir.vreduce <max_with_index_left> ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%r, %ri : memref<16x1xf32, #hivm.address_space<ub>>, memref<16x1xi32, #hivm.address_space<ub>>) reduce_dims = [1]
    return
  }

  // CHECK-LABEL: func.func @sync
  // BACK-LABEL: func.func @sync
  func.func @sync(%ev: i64, %flag: i64) {
    // CHECK: "hivm.hir_set_flag"() {set_pipe = #hivm.pipe<"PIPE_MTE2">, static_event_id = #hivm.event<0 : i64>, wait_pipe = #hivm.pipe<"PIPE_V">}
    // BACK: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    // CHECK: "hivm.hir_wait_flag"(%{{.*}}) {set_pipe = #hivm.pipe<"PIPE_M">, wait_pipe = #hivm.pipe<"PIPE_FIX">}
    // BACK: hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, %{{.*}}]
    hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, %ev]
    // CHECK: "hivm.hir_pipe_barrier"() {pipe = #hivm.pipe<"PIPE_ALL">}
    // BACK: hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    // CHECK: "hivm.hir_sync_block_set"() {operandSegmentSizes = array<i32: 0, 0>, pipe = #hivm.pipe<"PIPE_V">, static_flag_id = 0 : i64, tcore_type = #hivm.tcore_type<"CUBE">, tpipe = #hivm.pipe<"PIPE_FIX">}
    // BACK: hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
    // CHECK: "hivm.hir_sync_block_wait"(%{{.*}}) {pipe = #hivm.pipe<"PIPE_MTE2">, tcore_type = #hivm.tcore_type<"CUBE">, tpipe = #hivm.pipe<"PIPE_MTE3">}
    // BACK: hivm.hir.sync_block_wait[<CUBE>, <PIPE_MTE3>, <PIPE_MTE2>] flag = %{{.*}}
    hivm.hir.sync_block_wait[<CUBE>, <PIPE_MTE3>, <PIPE_MTE2>] flag = %flag
    return
  }

  // A MIX part: argument kinds (hacc) and the cross-core flag base address.
  // CHECK-LABEL: func.func @mix_entry
  // CHECK-SAME: {hacc.arg_type = #hacc.arg_type<"ffts_base_address">}
  // CHECK-SAME: attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<"AIC">, hivm.part_of_mix}
  // CHECK: "hivm.hir_set_ffts_base_addr"(%{{.*}}) : (i64) -> ()
  // BACK-LABEL: func.func @mix_entry
  // BACK-SAME: {hacc.arg_type = #hacc.arg_type<ffts_base_address>}
  // BACK-SAME: attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIC>, hivm.part_of_mix}
  // BACK: hivm.hir.set_ffts_base_addr %{{.*}}
  func.func @mix_entry(%ffts: i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIC>, hivm.part_of_mix} {
    hivm.hir.set_ffts_base_addr %ffts
    return
  }

  // CHECK-LABEL: func.func @memory_and_ids
  // BACK-LABEL: func.func @memory_and_ids
  func.func @memory_and_ids(%n: index) {
    // CHECK: "hivm.hir_get_block_idx"() : () -> i64
    // BACK: hivm.hir.get_block_idx -> i64
    %idx = hivm.hir.get_block_idx -> i64
    // CHECK: "hivm.hir_get_sub_block_idx"() : () -> i64
    // BACK: hivm.hir.get_sub_block_idx -> i64
    %sub = hivm.hir.get_sub_block_idx -> i64
    %c0 = arith.constant 0 : i64
    %c4096 = arith.constant 4096 : i64
    // CHECK: "hivm.hir_pointer_cast"(%{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 2, 0>} : (i64, i64) -> memref<16x64xf32, #hivm.address_space<"cbuf">>
    // BACK: hivm.hir.pointer_cast(%{{.*}}, %{{.*}}) : memref<16x64xf32, #hivm.address_space<cbuf>>
    %multi = hivm.hir.pointer_cast(%c0, %c4096) : memref<16x64xf32, #hivm.address_space<cbuf>>
    // CHECK: "hivm.hir_pointer_cast"(%{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1>} : (i64, index) -> memref<?x64xf32, #hivm.address_space<"ub">>
    // BACK: hivm.hir.pointer_cast(%{{.*}}) [%{{.*}}] : memref<?x64xf32, #hivm.address_space<ub>>
    %dyn = hivm.hir.pointer_cast(%c0) [%n] : memref<?x64xf32, #hivm.address_space<ub>>
    return
  }
}
