// bishengir accepts the long attribute spelling where it prints the short one, the
// enum properties of an op inside its attr-dict, and the legacy {enable_nz2nd}; all of
// them parse and print in bishengir's canonical (short) form.
// RUN: ascend-opt %s | filecheck %s
// RUN: ascend-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  // CHECK-LABEL: func.func @long_forms
  func.func @long_forms(%g: memref<16x16xf32, #hivm.address_space<gm>>, %f: f32, %ev: i64) {
    %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %h = memref.alloc() : memref<16x16xf16, #hivm.address_space<ub>>
    %r = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
    %c = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
    // CHECK: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID3>]
    // GENERIC: "hivm.hir.set_flag"() <{set_pipe = #hivm.pipe<PIPE_MTE2>, static_event_id = #hivm.event<EVENT_ID3>, wait_pipe = #hivm.pipe<PIPE_V>}> : () -> ()
    hivm.hir.set_flag[#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_V>, #hivm.event<EVENT_ID3>]
    // CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, %ev]
    // GENERIC-NEXT: "hivm.hir.wait_flag"(%ev) <{set_pipe = #hivm.pipe<PIPE_MTE2>, wait_pipe = #hivm.pipe<PIPE_V>}> : (i64) -> ()
    hivm.hir.wait_flag[#hivm.pipe<PIPE_MTE2>, <PIPE_V>, %ev]
    // CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_V>]
    hivm.hir.pipe_barrier[#hivm.pipe<PIPE_V>]
    // CHECK-NEXT: hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 5
    // GENERIC: "hivm.hir.sync_block_set"() <{operandSegmentSizes = array<i32: 0, 0>, pipe = #hivm.pipe<PIPE_V>, static_flag_id = 5 : i64, tcore_type = #hivm.tcore_type<CUBE>, tpipe = #hivm.pipe<PIPE_FIX>}> : () -> ()
    hivm.hir.sync_block_set[#hivm.tcore_type<CUBE>, #hivm.pipe<PIPE_FIX>, #hivm.pipe<PIPE_V>] flag = 5
    // CHECK-NEXT: hivm.hir.load ins(%g : memref<16x16xf32, #hivm.address_space<gm>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>) pad_mode = <PadValue> pad_value = %f : f32
    hivm.hir.load ins(%g : memref<16x16xf32, #hivm.address_space<gm>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>) pad_mode = #hivm.padmode<PadValue> pad_value = %f : f32
    // CHECK-NEXT: hivm.hir.store ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%g : memref<16x16xf32, #hivm.address_space<gm>>) atomic = <max>
    hivm.hir.store ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%g : memref<16x16xf32, #hivm.address_space<gm>>) atomic = #hivm.atomic_kind<max>
    // CHECK-NEXT: hivm.hir.vcast ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%h : memref<16x16xf16, #hivm.address_space<ub>>) round_mode = <ceil>
    // GENERIC: "hivm.hir.vcast"(%u, %h) <{broadcast = array<i64>, cast = #hivm.cast<cast_signed>, operandSegmentSizes = array<i32: 1, 1, 0>, round_mode = #hivm.round_mode<ceil>, transpose = array<i64>}>
    hivm.hir.vcast {round_mode = #hivm.round_mode<ceil>} ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%h : memref<16x16xf16, #hivm.address_space<ub>>)
    // The default round mode is not printed.
    // CHECK-NEXT: hivm.hir.vcast ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%h : memref<16x16xf16, #hivm.address_space<ub>>){{$}}
    hivm.hir.vcast ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%h : memref<16x16xf16, #hivm.address_space<ub>>) round_mode = #hivm.round_mode<rint>
    // CHECK-NEXT: hivm.hir.vreduce <sum> ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
    hivm.hir.vreduce #hivm.reduce_op<sum> ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
    // CHECK-NEXT: hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%c : memref<16x16xf32, #hivm.address_space<cc>>) outs(%g : memref<16x16xf32, #hivm.address_space<gm>>)
    hivm.hir.fixpipe {enable_nz2nd} ins(%c : memref<16x16xf32, #hivm.address_space<cc>>) outs(%g : memref<16x16xf32, #hivm.address_space<gm>>)
    // Default-valued fixpipe modes are dropped from the custom form, as bishengir does.
    // CHECK-NEXT: hivm.hir.fixpipe ins(%c : memref<16x16xf32, #hivm.address_space<cc>>) outs(%g : memref<16x16xf32, #hivm.address_space<gm>>){{$}}
    // GENERIC: "hivm.hir.fixpipe"(%c, %g) <{dma_mode = #hivm.dma_mode<normal>, operandSegmentSizes = array<i32: 1, 1, 0, 0>, pre_quant = #hivm.fixpipe_pre_quant_mode<NO_QUANT>}>
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<normal>, pre_quant = #hivm.fixpipe_pre_quant_mode<NO_QUANT>} ins(%c : memref<16x16xf32, #hivm.address_space<cc>>) outs(%g : memref<16x16xf32, #hivm.address_space<gm>>)
    // Discardable attributes (ours start with `ascend.`) stay in the attr-dict.
    // CHECK-NEXT: hivm.hir.vexp {ascend.latency = 12 : i64} ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vexp {ascend.latency = 12 : i64} ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
    // CHECK-NEXT: hivm.hir.load ins(%g : memref<16x16xf32, #hivm.address_space<gm>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>) {ascend.latency = 40 : i64}
    hivm.hir.load ins(%g : memref<16x16xf32, #hivm.address_space<gm>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>) {ascend.latency = 40 : i64}
    // CHECK-NEXT: hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>] {ascend.stage = 1 : i64}
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>] {ascend.stage = 1 : i64}
    return
  }
}
