// A MIX kernel already split into the `_mix_aic` / `_mix_aiv` pair (split-mix-kernel)
// prints as the same one `__mix__` function: each side is its function; the FFTS base
// address argument stays a parameter. A buffer of the other core's memory (the fixpipe's
// UB destination in the aic function) sits where the partner function has it, even when
// the aiv function allocates other UB buffers first.
// RUN: ascend-opt %s -p 'ascend-compile{target=cce}' -t cce | filecheck %s
// RUN: ascend-sim %s --via cce --json | filecheck %s --check-prefix=EMU
// EMU: "deadlock": false, "unbalanced_flags": []
// EMU-SAME: "ok": true

// CHECK:      extern "C" __global__ __mix__(1, 2) void mm_relu(int64_t ffts_base_addr, __gm__ half *a, __gm__ half *b, __gm__ float *c) {
// CHECK-NEXT:   asc_init();
// CHECK-NEXT:   if ASC_IS_AIC {
// CHECK:          asc_set_ffts_base_addr(ffts_base_addr);
// CHECK:          __ubuf__ float *uc = (__ubuf__ float *)(ub_buf + 16384);
// CHECK:          asc_copy_l0c2ub(uc, acc, 64, 128, 64, 128, 0, (asc_dual_dst_mode)1,
// CHECK:        if ASC_IS_AIV {
// CHECK:          __ubuf__ float *ur = (__ubuf__ float *)(ub_buf + 0);
// CHECK-NEXT:     __ubuf__ float *uc = (__ubuf__ float *)(ub_buf + 16384);
module attributes {hivm.module_core_type = #hivm.module_core_type<MIX>} {
  func.func @mm_relu_mix_aic(%ffts_base_addr: i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}, %a: memref<128x64xf16, #hivm.address_space<gm>>, %b: memref<64x64xf16, #hivm.address_space<gm>>, %c: memref<128x64xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIC>, hivm.part_of_mix} {
    hivm.hir.set_ffts_base_addr %ffts_base_addr
    %true = arith.constant true
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %la = memref.alloc() : memref<128x64xf16, #hivm.address_space<cbuf>>
    %lb = memref.alloc() : memref<64x64xf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<128x64xf32, #hivm.address_space<cc>>
    %uc = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    hivm.hir.nd2nz {dst_continuous} ins(%a : memref<128x64xf16, #hivm.address_space<gm>>) outs(%la : memref<128x64xf16, #hivm.address_space<cbuf>>)
    hivm.hir.nd2nz {dst_continuous} ins(%b : memref<64x64xf16, #hivm.address_space<gm>>) outs(%lb : memref<64x64xf16, #hivm.address_space<cbuf>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
    hivm.hir.mmadL1 ins(%la, %lb, %true, %c128, %c64, %c64 : memref<128x64xf16, #hivm.address_space<cbuf>>, memref<64x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<128x64xf32, #hivm.address_space<cc>>)
    hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<128x64xf32, #hivm.address_space<cc>>) outs(%uc : memref<64x64xf32, #hivm.address_space<ub>>) dual_dst_mode = <ROW_SPLIT>
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 1
    return
  }
  func.func @mm_relu_mix_aiv(%ffts_base_addr: i64 {hacc.arg_type = #hacc.arg_type<ffts_base_address>}, %a: memref<128x64xf16, #hivm.address_space<gm>>, %b: memref<64x64xf16, #hivm.address_space<gm>>, %c: memref<128x64xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
    hivm.hir.set_ffts_base_addr %ffts_base_addr
    %c64 = arith.constant 64 : index
    %ur = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    %uc = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 1
    hivm.hir.vrelu ins(%uc : memref<64x64xf32, #hivm.address_space<ub>>) outs(%ur : memref<64x64xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    %sub = hivm.hir.get_sub_block_idx -> i64
    %sub_index = arith.index_cast %sub : i64 to index
    %row = arith.muli %sub_index, %c64 : index
    %cs = memref.subview %c[%row, 0] [64, 64] [1, 1] : memref<128x64xf32, #hivm.address_space<gm>> to memref<64x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.store ins(%ur : memref<64x64xf32, #hivm.address_space<ub>>) outs(%cs : memref<64x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>)
    return
  }
}
