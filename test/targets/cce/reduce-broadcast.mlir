// Row reductions and row broadcasts (the softmax / norm pattern).
// dav-3510: `__simd_vf__` helpers of register SIMD, printed once per kind and element type
// before the kernel and called with pointers, sizes and row strides (elements): per row,
// 64-lane chunks under asc_update_mask_b32 tail masks, reduced in-register into lane 0,
// chunk results combined under a one-lane mask, stored with the unaligned-store pair;
// broadcasts read the row's value unaligned and spread lane 0 with asc_duplicate.
// dav-c220: whole-reduce vcmax/vcadd with repeat = rows in normal mask mode, one 256-byte
// repeat per call: wider rows are ascend-lower-wide-reduce's steps (IR: repeats folded
// through a scratch row at the top of UB, V barriers between them); vbrcb broadcasts.
// test_cce_emulation.py runs this kernel on both arches against numpy.
// RUN: ascend-opt %s -p 'ascend-compile{target=cce}' -t 'cce{arch=dav-3510}' | filecheck %s --check-prefix=A5
// RUN: ascend-opt %s -p 'ascend-compile{target=cce}' -t 'cce{arch=dav-3510}' | filecheck %s --check-prefix=A5-BARRIERS
// RUN: ascend-opt %s -p 'ascend-compile{target=cce chip=ascend910b}' -t 'cce{arch=dav-c220}' | filecheck %s --check-prefix=C220
// On the 950 (V ordered) the printed V barriers are the IR's five, no more:
// A5-BARRIERS-COUNT-5: asc_sync_pipe(PIPE_V);
// A5-BARRIERS-NOT:     asc_sync_pipe(PIPE_V);

// A5:       __simd_vf__ inline void vf_row_reduce_max_f32(__ubuf__ float *dst, __ubuf__ float *src, uint32_t rows, uint32_t cols,
// A5-NEXT:                                               uint32_t src_stride, uint32_t dst_stride) {
// A5:         vector_bool lane0 = asc_create_mask_b32(PAT_VL1);
// A5:         for (uint32_t r = 0; r < rows; ++r) {
// A5-NEXT:      uint32_t count = cols;
// A5-NEXT:      vector_bool mask = asc_update_mask_b32(count);
// A5-NEXT:      asc_loadalign(x, src + r * src_stride);
// A5-NEXT:      asc_reduce_max(acc, x, mask);
// A5-NEXT:      for (uint32_t c = 64; c < cols; c += 64) {
// A5-NEXT:        mask = asc_update_mask_b32(count);
// A5-NEXT:        asc_loadalign(x, src + r * src_stride + c);
// A5-NEXT:        asc_reduce_max(part, x, mask);
// A5-NEXT:        asc_max(acc, acc, part, lane0);
// A5-NEXT:      }
// A5-NEXT:      asc_storeunalign(dst + r * dst_stride, out, acc, 1);
// A5-NEXT:      asc_storeunalign_post(dst + r * dst_stride, out, 1);
// A5:       __simd_vf__ inline void vf_row_broadcast_f32(
// A5:           asc_loadunalign_pre(in, src + r * src_stride);
// A5-NEXT:      asc_loadunalign(x, in, src + r * src_stride);
// A5:             asc_duplicate(y, x, mask);
// A5-NEXT:        asc_storealign(dst + r * dst_stride + c, y, mask);
// A5:       __simd_vf__ inline void vf_row_reduce_sum_f32(
// A5:           asc_reduce_sum(acc, x, mask);
// A5:             asc_add(acc, acc, part, lane0);
// A5:       __simd_vf__ inline void vf_row_reduce_min_f32(
// each helper once, however many ops use it
// A5-NOT:   __simd_vf__
// A5:       extern "C" __global__ __vector__ void rows(__gm__ float *x, __gm__ float *y, __gm__ float *mx, __gm__ float *mn)

func.func @rows(%x: memref<16x256xf32, #hivm.address_space<gm>>, %y: memref<16x256xf32, #hivm.address_space<gm>>, %mx: memref<16x1xf32, #hivm.address_space<gm>>, %mn: memref<16x1xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
  %u = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
  %w = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
  %m = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
  %s = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
  %n = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%x : memref<16x256xf32, #hivm.address_space<gm>>) outs(%u : memref<16x256xf32, #hivm.address_space<ub>>)
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  // A5:       vf_row_reduce_max_f32(m, u, 16, 256, 256, 1);
  // 256 columns are four 64-lane repeats. On dav-c220 ascend-lower-wide-reduce (run by
  // ascend-compile{target=cce} for the 910B) wrote the steps as IR: the first repeat
  // into m, the others into a scratch row at the top of UB (16 results, 64 bytes; the
  // 910B's UB ends at 196608), each folded into m with vmax in counter mode. The 910B
  // does not order V (chips.needs_barrier): the V barriers between the steps are IR too,
  // seen by the sync check and the simulator; the printer adds none
  // C220:      __ubuf__ float *reduce_scratch = (__ubuf__ float *)(ub_buf + 196544);
  // C220:      set_mask_norm();
  // C220-NEXT: set_vector_mask(0x0ULL, 0xffffffffffffffffULL);
  // C220-NEXT: vcmax(m, repeat, 16, 1, 1, 32, ONLY_VALUE);
  // C220-NEXT: set_mask_count();
  // C220-NEXT: __ubuf__ float *repeat_2 = u + 64;
  // C220-NEXT: set_mask_norm();
  // C220-NEXT: set_vector_mask(0x0ULL, 0xffffffffffffffffULL);
  // C220-NEXT: vcmax(reduce_scratch, repeat_2, 16, 1, 1, 32, ONLY_VALUE);
  // C220-NEXT: set_mask_count();
  // C220-NEXT: pipe_barrier(PIPE_V);
  // C220-NEXT: set_vector_mask(0, 16);
  // C220-NEXT: vmax(m, m, reduce_scratch, 1, 1, 1, 1, 8, 8, 8);
  // C220-NEXT: pipe_barrier(PIPE_V);
  // C220-NEXT: __ubuf__ float *repeat_3 = u + 128;
  // C220:      vmax(m, m, reduce_scratch, 1, 1, 1, 1, 8, 8, 8);
  // C220:      __ubuf__ float *repeat_4 = u + 192;
  // C220:      vmax(m, m, reduce_scratch, 1, 1, 1, 1, 8, 8, 8);
  // the IR's own barrier after the op orders the scratch for what follows: no second one
  // C220-NEXT: pipe_barrier(PIPE_V);
  // C220-NOT:  pipe_barrier
  // C220:      for (int32_t b = 0; b < 32; ++b) {
  hivm.hir.vreduce <max> ins(%u : memref<16x256xf32, #hivm.address_space<ub>>) outs(%m : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
  hivm.hir.pipe_barrier[<PIPE_V>]
  // A5:       vf_row_broadcast_f32(w, m, 16, 256, 256, 1);
  // each of the 16 row maxima fills one 32-byte block of its row (blocks 32 apart, 8 rows
  // per repeat), one vbrcb per block of the row: the calls write disjoint blocks and read
  // only m, so no barrier hides inside the op
  // C220-NEXT: vbrcb((__ubuf__ uint32_t *)(w + b * 8), (__ubuf__ uint32_t *)m, 32, 256, 2);
  // C220-NEXT: }
  // C220-NEXT: pipe_barrier(PIPE_V);
  hivm.hir.vbrc ins(%m : memref<16x1xf32, #hivm.address_space<ub>>) outs(%w : memref<16x256xf32, #hivm.address_space<ub>>) broadcast_dims = [1]
  hivm.hir.pipe_barrier[<PIPE_V>]
  hivm.hir.vsub ins(%u, %w : memref<16x256xf32, #hivm.address_space<ub>>, memref<16x256xf32, #hivm.address_space<ub>>) outs(%w : memref<16x256xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_V>]
  // a row of 32 columns is half a repeat: 32 lanes of the mask, no chunk loop
  %lo = memref.subview %w[0, 0] [16, 32] [1, 1] : memref<16x256xf32, #hivm.address_space<ub>> to memref<16x32xf32, strided<[256, 1]>, #hivm.address_space<ub>>
  // A5:       vf_row_reduce_sum_f32(s, lo, 16, 32, 256, 1);
  // C220:      set_vector_mask(0x0ULL, 0xffffffffULL);
  // C220-NEXT: vcadd(s, lo, 16, 1, 1, 32, 0);
  // C220-NEXT: set_mask_count();
  hivm.hir.vreduce <sum> ins(%lo : memref<16x32xf32, strided<[256, 1]>, #hivm.address_space<ub>>) outs(%s : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
  hivm.hir.pipe_barrier[<PIPE_V>]
  // A5:       vf_row_broadcast_f32(w, s, 16, 256, 256, 1);
  hivm.hir.vbrc ins(%s : memref<16x1xf32, #hivm.address_space<ub>>) outs(%w : memref<16x256xf32, #hivm.address_space<ub>>) broadcast_dims = [1]
  hivm.hir.pipe_barrier[<PIPE_V>]
  // A5:       vf_row_reduce_min_f32(n, u, 16, 256, 256, 1);
  // C220:      vcmin(n, repeat_{{[0-9]+}}, 16, 1, 1, 32, ONLY_VALUE);
  // C220-COUNT-3: vmin(n, n, reduce_scratch, 1, 1, 1, 1, 8, 8, 8);
  // the next reduction rewrites the scratch: a barrier between them
  // C220-NEXT: pipe_barrier(PIPE_V);
  // C220-NEXT: __ubuf__ float *repeat_{{[0-9]+}} = w;
  hivm.hir.vreduce <min> ins(%u : memref<16x256xf32, #hivm.address_space<ub>>) outs(%n : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
  // A5:       vf_row_reduce_max_f32(m, w, 16, 256, 256, 1);
  hivm.hir.vreduce <max> ins(%w : memref<16x256xf32, #hivm.address_space<ub>>) outs(%m : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
  hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.store ins(%w : memref<16x256xf32, #hivm.address_space<ub>>) outs(%y : memref<16x256xf32, #hivm.address_space<gm>>)
  hivm.hir.store ins(%m : memref<16x1xf32, #hivm.address_space<ub>>) outs(%mx : memref<16x1xf32, #hivm.address_space<gm>>)
  hivm.hir.store ins(%n : memref<16x1xf32, #hivm.address_space<ub>>) outs(%mn : memref<16x1xf32, #hivm.address_space<gm>>)
  return
}
