// REQUIRES: bishengir
// Interop with the real bishengir-opt 1.2.0, every op we model:
// (1) our custom and generic output parses in bishengir-opt and its output parses back in
//     ascend-opt (FileCheck below);
// (2) both printers produce the same text for every hivm/annotation line, in custom and in
//     generic form (SSA names normalised, since each tool picks its own; in generic form
//     xDSL spells the i64 lists of collapse_reassociation `0 : i64`, which MLIR reads the same).
// RUN: ascend-opt %s | %bishengir_opt | ascend-opt | filecheck %s
// RUN: ascend-opt %s --print-op-generic | %bishengir_opt --mlir-print-op-generic | ascend-opt | filecheck %s
// RUN: %bishengir_opt %s | grep -E "hivm\.hir\.|annotation\.mark|func\.func" | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.bishengir
// RUN: ascend-opt %s | grep -E "hivm\.hir\.|annotation\.mark|func\.func" | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.ascend
// RUN: diff %t.bishengir %t.ascend
// RUN: %bishengir_opt %s --mlir-print-op-generic | grep -E "\"hivm\.hir\.|\"annotation\.mark" | grep -v collapse_reassociation | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.bishengir-generic
// RUN: ascend-opt %s --print-op-generic | grep -E "\"hivm\.hir\.|\"annotation\.mark" | grep -v collapse_reassociation | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.ascend-generic
// RUN: diff %t.bishengir-generic %t.ascend-generic

// CHECK: builtin.module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">}
// CHECK: hivm.hir.load ins({{%[a-z0-9_]+}} : memref<16x64xf16, #hivm.address_space<gm>>) outs({{%[a-z0-9_]+}} : memref<16x64xf16, #hivm.address_space<ub>>)
// CHECK: pad_mode = <PadValue> pad_value = {{%[a-z0-9_]+}} : f16 left_padding_num = {{%[a-z0-9_]+}} : index init_out_buffer = true
// CHECK: hivm.hir.store
// CHECK: atomic = <add>
// CHECK: hivm.hir.copy {{.*}}#hivm.address_space<ub>>)
// CHECK: hivm.hir.copy {{.*}}#hivm.address_space<cbuf>>)
// CHECK: hivm.hir.nd2nz {dst_continuous} ins(
// CHECK: hivm.hir.nd2nz ins({{.*}}) init_out_buffer = true pad_value =
// CHECK: hivm.hir.mmadL1 ins(
// CHECK: hivm.hir.mmadL1 {b_transpose} ins(
// CHECK: hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(
// CHECK: hivm.hir.fixpipe ins(
// CHECK: hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>, pre_relu = #hivm.fixpipe_pre_relu_mode<NORMAL_RELU>} ins({{.*}}) dual_dst_mode = <ROW_SPLIT>
// CHECK: hivm.hir.vadd ins(
// CHECK: hivm.hir.vsub ins(
// CHECK: hivm.hir.vmul ins({{.*}}, f32) outs(
// CHECK: hivm.hir.vdiv ins(
// CHECK: hivm.hir.vmax ins(
// CHECK: hivm.hir.vmin ins(
// CHECK: hivm.hir.vadd ins({{.*}}) broadcast = [1]
// CHECK: hivm.hir.vexp ins(
// CHECK: hivm.hir.vln ins(
// CHECK: hivm.hir.vabs ins(
// CHECK: hivm.hir.vrelu ins(
// CHECK: hivm.hir.vsqrt ins(
// CHECK: hivm.hir.vrsqrt ins(
// CHECK: hivm.hir.vrec ins(
// CHECK: hivm.hir.vcast ins(
// CHECK: hivm.hir.vcast ins({{.*}}) round_mode = <floor>
// CHECK: hivm.hir.vbrc ins({{.*}}) broadcast_dims = [1]
// CHECK: hivm.hir.vbrc ins({{%[a-z0-9_]+}} : f32) outs(
// CHECK: hivm.hir.vreduce <sum> ins({{.*}}) reduce_dims = [1]
// CHECK: hivm.hir.vreduce <max>
// CHECK: hivm.hir.vreduce <min>
// CHECK: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK: hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK: hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID7>]
// CHECK: hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, {{%[a-z0-9_]+}}]
// CHECK: hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK: hivm.hir.pipe_barrier[<PIPE_MTE2>]
// CHECK: hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
// CHECK: hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 0
// CHECK: hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE3>, <PIPE_MTE2>] flag = {{%[a-z0-9_]+}}
// CHECK: hivm.hir.sync_block_wait[<CUBE>, <PIPE_MTE3>, <PIPE_MTE2>] flag = {{%[a-z0-9_]+}}
// CHECK: hivm.hir.get_block_idx -> i64
// CHECK: hivm.hir.get_block_num -> i64
// CHECK: hivm.hir.get_sub_block_idx -> i64
// CHECK: hivm.hir.pointer_cast({{%[a-z0-9_]+}}) : memref<16x64xf32, #hivm.address_space<ub>>
// CHECK: hivm.hir.pointer_cast({{%[a-z0-9_]+}}, {{%[a-z0-9_]+}}) : memref<16x64xf32, #hivm.address_space<cbuf>>
// CHECK: hivm.hir.pointer_cast({{%[a-z0-9_]+}}) [{{%[a-z0-9_]+}}] : memref<?x64xf32, #hivm.address_space<ub>>
// CHECK: annotation.mark {{%[a-z0-9_]+}} {hivm.multi_buffer = 2 : i32} : memref<16x64xf32, #hivm.address_space<ub>>
// CHECK: hivm.hir.set_ffts_base_addr {{%[a-z0-9_]+}}
// CHECK: hivm.hir.load {{.*}} pad_mode = <PadValue> pad_value = {{.*}} left_padding_num = {{.*}} init_out_buffer = true right_padding_num = {{.*}} init_condition = {{.*}} may_implicit_transpose_with_last_axis = true core_type = <VECTOR>
// CHECK: hivm.hir.vexp {{.*}} temp_buffer(
// CHECK: hivm.hir.copy {{.*}} pad_mode = <PadValue> pad_value =
// CHECK: hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
// CHECK: hivm.hir.mmadL1 {{.*}} unit_flag_mode([#hivm.unit_flag<ENABLED_WITH_UPDATE>]) unit_flag_cond(
// CHECK: hivm.hir.fixpipe {{.*}} unit_flag_mode([#hivm.unit_flag<ENABLED_WITH_UPDATE>]) unit_flag_cond(
// CHECK: hivm.hir.fixpipe {{.*}} dual_dst_mode = <NO_DUAL>
// CHECK: hivm.hir.mmadL1 {{.*}} sync_related_args(
// CHECK: hivm.hir.load {{.*}} init_out_buffer = false may_implicit_transpose_with_last_axis = false core_type = <CUBE_OR_VECTOR>
// CHECK: hivm.hir.nd2nz {{.*}} init_out_buffer = false
// CHECK: hivm.hir.copy {{.*}} collapse_reassociation = [[0, 1, 2]]

module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  func.func @dma(%g: memref<16x64xf16, #hivm.address_space<gm>>, %pad: f16, %n: index) {
    %u = memref.alloc() : memref<16x64xf16, #hivm.address_space<ub>>
    %v = memref.alloc() : memref<16x64xf16, #hivm.address_space<ub>>
    %l1 = memref.alloc() : memref<16x64xf16, #hivm.address_space<cbuf>>
    hivm.hir.load ins(%g : memref<16x64xf16, #hivm.address_space<gm>>) outs(%u : memref<16x64xf16, #hivm.address_space<ub>>)
    hivm.hir.load ins(%g : memref<16x64xf16, #hivm.address_space<gm>>) outs(%u : memref<16x64xf16, #hivm.address_space<ub>>) pad_mode = <PadValue> pad_value = %pad : f16 left_padding_num = %n : index init_out_buffer = true
    hivm.hir.store ins(%u : memref<16x64xf16, #hivm.address_space<ub>>) outs(%g : memref<16x64xf16, #hivm.address_space<gm>>)
    hivm.hir.store ins(%u : memref<16x64xf16, #hivm.address_space<ub>>) outs(%g : memref<16x64xf16, #hivm.address_space<gm>>) atomic = <add>
    hivm.hir.copy ins(%u : memref<16x64xf16, #hivm.address_space<ub>>) outs(%v : memref<16x64xf16, #hivm.address_space<ub>>)
    hivm.hir.copy ins(%u : memref<16x64xf16, #hivm.address_space<ub>>) outs(%l1 : memref<16x64xf16, #hivm.address_space<cbuf>>)
    hivm.hir.nd2nz {dst_continuous} ins(%g : memref<16x64xf16, #hivm.address_space<gm>>) outs(%l1 : memref<16x64xf16, #hivm.address_space<cbuf>>)
    hivm.hir.nd2nz ins(%g : memref<16x64xf16, #hivm.address_space<gm>>) outs(%l1 : memref<16x64xf16, #hivm.address_space<cbuf>>) init_out_buffer = true pad_value = %pad : f16
    return
  }

  func.func @cube(%out: memref<64x64xf32, #hivm.address_space<gm>>, %init: i1) {
    %a = memref.alloc() : memref<64x32xf16, #hivm.address_space<cbuf>>
    %b = memref.alloc() : memref<32x64xf16, #hivm.address_space<cbuf>>
    %bt = memref.alloc() : memref<64x32xf16, #hivm.address_space<cbuf>>
    %c = memref.alloc() : memref<64x64xf32, #hivm.address_space<cc>>
    %half = memref.alloc() : memref<32x64xf32, #hivm.address_space<ub>>
    %l1c = memref.alloc() : memref<64x64xf32, #hivm.address_space<cbuf>>
    %true = arith.constant true
    %c64 = arith.constant 64 : index
    %c32 = arith.constant 32 : index
    hivm.hir.mmadL1 ins(%a, %b, %true, %c64, %c32, %c64 : memref<64x32xf16, #hivm.address_space<cbuf>>, memref<32x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>)
    hivm.hir.mmadL1 {b_transpose} ins(%a, %bt, %init, %c64, %c32, %c64 : memref<64x32xf16, #hivm.address_space<cbuf>>, memref<64x32xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%c : memref<64x64xf32, #hivm.address_space<cc>>) outs(%out : memref<64x64xf32, #hivm.address_space<gm>>)
    hivm.hir.fixpipe ins(%c : memref<64x64xf32, #hivm.address_space<cc>>) outs(%l1c : memref<64x64xf32, #hivm.address_space<cbuf>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>, pre_relu = #hivm.fixpipe_pre_relu_mode<NORMAL_RELU>} ins(%c : memref<64x64xf32, #hivm.address_space<cc>>) outs(%half : memref<32x64xf32, #hivm.address_space<ub>>) dual_dst_mode = <ROW_SPLIT>
    return
  }

  func.func @vector(%s: f32) {
    %x = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
    %y = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
    %z = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
    %r = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
    %h = memref.alloc() : memref<16x64xf16, #hivm.address_space<ub>>
    hivm.hir.vadd ins(%x, %y : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vsub ins(%x, %y : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vmul ins(%x, %s : memref<16x64xf32, #hivm.address_space<ub>>, f32) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vdiv ins(%x, %y : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vmax ins(%x, %y : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vmin ins(%x, %s : memref<16x64xf32, #hivm.address_space<ub>>, f32) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%x, %r : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x1xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>) broadcast = [1]
    hivm.hir.vexp ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vln ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vabs ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vrelu ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vsqrt ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vrsqrt ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vrec ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vcast ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%h : memref<16x64xf16, #hivm.address_space<ub>>)
    hivm.hir.vcast ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%h : memref<16x64xf16, #hivm.address_space<ub>>) round_mode = <floor>
    hivm.hir.vbrc ins(%r : memref<16x1xf32, #hivm.address_space<ub>>) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>) broadcast_dims = [1]
    hivm.hir.vbrc ins(%s : f32) outs(%z : memref<16x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vreduce <sum> ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
    hivm.hir.vreduce <max> ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
    hivm.hir.vreduce <min> ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
    return
  }

  func.func @transposed(%a: memref<2x16x4xf32, #hivm.address_space<ub>>, %c: memref<16x2x4xf32, #hivm.address_space<ub>>) {
    hivm.hir.vadd ins(%a, %a : memref<2x16x4xf32, #hivm.address_space<ub>>, memref<2x16x4xf32, #hivm.address_space<ub>>) outs(%c : memref<16x2x4xf32, #hivm.address_space<ub>>) transpose = [1, 0, 2]
    hivm.hir.vcast ins(%c : memref<16x2x4xf32, #hivm.address_space<ub>>) outs(%c : memref<16x2x4xf32, #hivm.address_space<ub>>) round_mode = <floor>
    return
  }

  func.func @sync(%ev: i64, %flag: i64) {
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID7>]
    hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, %ev]
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.pipe_barrier[<PIPE_MTE2>]
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 0
    hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE3>, <PIPE_MTE2>] flag = %flag
    hivm.hir.sync_block_wait[<CUBE>, <PIPE_MTE3>, <PIPE_MTE2>] flag = %flag
    return
  }

  func.func @memory_and_ids(%n: index, %ffts: i64) {
    %idx = hivm.hir.get_block_idx -> i64
    %num = hivm.hir.get_block_num -> i64
    %sub = hivm.hir.get_sub_block_idx -> i64
    %c0 = arith.constant 0 : i64
    %c4096 = arith.constant 4096 : i64
    %buf = hivm.hir.pointer_cast(%c0) : memref<16x64xf32, #hivm.address_space<ub>>
    %multi = hivm.hir.pointer_cast(%c0, %c4096) : memref<16x64xf32, #hivm.address_space<cbuf>>
    %dyn = hivm.hir.pointer_cast(%c0) [%n] : memref<?x64xf32, #hivm.address_space<ub>>
    annotation.mark %buf {hivm.multi_buffer = 2 : i32} : memref<16x64xf32, #hivm.address_space<ub>>
    hivm.hir.set_ffts_base_addr %ffts
    return
  }

  // Rarely used optional operands and attributes, in bishengir's order.
  func.func @optional_operands(%a: memref<16xf16, #hivm.address_space<gm>>, %f: f16, %n: index, %c: i1, %t: memref<16xf16, #hivm.address_space<ub>>) {
    %u = memref.alloc() : memref<16xf16, #hivm.address_space<ub>>
    hivm.hir.load ins(%a : memref<16xf16, #hivm.address_space<gm>>) outs(%u : memref<16xf16, #hivm.address_space<ub>>) pad_mode = <PadValue> pad_value = %f : f16 left_padding_num = %n : index init_out_buffer = true right_padding_num = %n : index init_condition = %c : i1 may_implicit_transpose_with_last_axis = true core_type = <VECTOR>
    hivm.hir.vexp ins(%u : memref<16xf16, #hivm.address_space<ub>>) outs(%u : memref<16xf16, #hivm.address_space<ub>>) temp_buffer(%t : memref<16xf16, #hivm.address_space<ub>>)
    hivm.hir.copy ins(%u : memref<16xf16, #hivm.address_space<ub>>) outs(%t : memref<16xf16, #hivm.address_space<ub>>) pad_mode = <PadValue> pad_value = %f : f16
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0 sync_instr_mode = <INTER_BLOCK_SYNCHRONIZATION>
    return
  }

  // Unit flags (L0C hand-off between mmadL1 and fixpipe), bias, inject-sync arguments.
  func.func @unit_flags(%g: memref<64x64xf32, #hivm.address_space<gm>>, %u: memref<64x64xf32, #hivm.address_space<ub>>, %cond: i1, %e: i64, %bias: memref<64xf32, #hivm.address_space<cbuf>>) {
    %a = memref.alloc() : memref<64x64xf16, #hivm.address_space<cbuf>>
    %c = memref.alloc() : memref<64x64xf32, #hivm.address_space<cc>>
    %true = arith.constant true
    %n = arith.constant 64 : index
    hivm.hir.mmadL1 ins(%a, %a, %true, %n, %n, %n : memref<64x64xf16, #hivm.address_space<cbuf>>, memref<64x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>) unit_flag_mode([#hivm.unit_flag<ENABLED_WITH_UPDATE>]) unit_flag_cond(%cond)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%c : memref<64x64xf32, #hivm.address_space<cc>>) outs(%g : memref<64x64xf32, #hivm.address_space<gm>>) unit_flag_mode([#hivm.unit_flag<ENABLED_WITH_UPDATE>]) unit_flag_cond(%cond)
    hivm.hir.fixpipe ins(%c : memref<64x64xf32, #hivm.address_space<cc>>) outs(%u : memref<64x64xf32, #hivm.address_space<ub>>) dual_dst_mode = <NO_DUAL>
    hivm.hir.mmadL1 ins(%a, %a, %true, %n, %n, %n, %bias : memref<64x64xf16, #hivm.address_space<cbuf>>, memref<64x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index, memref<64xf32, #hivm.address_space<cbuf>>) outs(%c : memref<64x64xf32, #hivm.address_space<cc>>) sync_related_args(%e, %e, %e, %e, %e, %e, %e : i64, i64, i64, i64, i64, i64, i64)
    return
  }

  // Optional groups anchored on default-valued optional properties print whenever the
  // property is present (as bishengir does), default-valued ones only when not default.
  func.func @present_defaults(%a: memref<16xf16, #hivm.address_space<gm>>, %t: memref<16xf16, #hivm.address_space<ub>>, %f: memref<16xf32, #hivm.address_space<ub>>, %l: memref<16xf16, #hivm.address_space<cbuf>>, %s: memref<4x8x4xbf16, strided<[64, 8, 1]>, #hivm.address_space<ub>>, %d: memref<4x8x4xbf16, #hivm.address_space<ub>>) {
    hivm.hir.load ins(%a : memref<16xf16, #hivm.address_space<gm>>) outs(%t : memref<16xf16, #hivm.address_space<ub>>) init_out_buffer = false may_implicit_transpose_with_last_axis = false core_type = <CUBE_OR_VECTOR>
    hivm.hir.store ins(%t : memref<16xf16, #hivm.address_space<ub>>) outs(%a : memref<16xf16, #hivm.address_space<gm>>) {may_implicit_transpose_with_last_axis = false}
    hivm.hir.nd2nz ins(%a : memref<16xf16, #hivm.address_space<gm>>) outs(%l : memref<16xf16, #hivm.address_space<cbuf>>) init_out_buffer = false
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0 sync_instr_mode = <INTRA_BLOCK_SYNCHRONIZATION>
    hivm.hir.vcast ins(%t : memref<16xf16, #hivm.address_space<ub>>) outs(%f : memref<16xf32, #hivm.address_space<ub>>) cast = <cast_signed>
    hivm.hir.vcast ins(%t : memref<16xf16, #hivm.address_space<ub>>) outs(%f : memref<16xf32, #hivm.address_space<ub>>) cast = <cast_unsigned>
    hivm.hir.vadd ins(%t, %t : memref<16xf16, #hivm.address_space<ub>>, memref<16xf16, #hivm.address_space<ub>>) outs(%t : memref<16xf16, #hivm.address_space<ub>>) broadcast = []
    hivm.hir.copy ins(%s : memref<4x8x4xbf16, strided<[64, 8, 1]>, #hivm.address_space<ub>>) outs(%d : memref<4x8x4xbf16, #hivm.address_space<ub>>) collapse_reassociation = [[0, 1, 2]]
    return
  }
}
