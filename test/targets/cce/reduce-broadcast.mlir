// Row reductions and row broadcasts (the softmax / norm pattern).
// dav-3510: `__simd_vf__` helpers of register SIMD, printed once per kind and element type
// before the kernel and called with pointers, sizes and row strides (elements): per row,
// 64-lane chunks under asc_update_mask_b32 tail masks, reduced in-register into lane 0,
// chunk results combined under a one-lane mask, stored with the unaligned-store pair;
// broadcasts read the row's value unaligned and spread lane 0 with asc_duplicate.
// dav-c220: whole-reduce vcmax/vcadd with repeat = rows in normal mask mode, 256-byte
// column chunks folded through a scratch row at the top of UB; vbrcb + vcopy broadcasts.
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
  // 256 columns are four 64-lane repeats: the first into m, the others through the scratch
  // row at the top of UB (16 results, 64 bytes), folded with vmax in counter mode; dav-c220
  // prints for the 910B, whose UB ends at 196608
  // C220:      set_mask_norm();
  // C220-NEXT: set_vector_mask(0x0ULL, 0xffffffffffffffffULL);
  // C220-NEXT: vcmax(m, u, 16, 1, 1, 32, ONLY_VALUE);
  // C220-NEXT: for (int32_t j = 1; j < 4; ++j) {
  // C220-NEXT:   vcmax((__ubuf__ float *)(ub_buf + 196544), u + j * 64, 16, 1, 1, 32, ONLY_VALUE);
  // the 910B does not order V (chips.needs_barrier): the op's own dependent instructions
  // (the fold reads the scratch, the next chunk rewrites it) are ordered inside the op
  // C220-NEXT:   pipe_barrier(PIPE_V);
  // C220-NEXT:   set_mask_count();
  // C220-NEXT:   set_vector_mask(0, 16);
  // C220-NEXT:   vmax(m, m, (__ubuf__ float *)(ub_buf + 196544), 1, 1, 1, 1, 8, 8, 8);
  // C220-NEXT:   pipe_barrier(PIPE_V);
  // C220-NEXT:   set_mask_norm();
  // C220-NEXT:   set_vector_mask(0x0ULL, 0xffffffffffffffffULL);
  // C220-NEXT: }
  // C220-NEXT: set_mask_count();
  hivm.hir.vreduce <max> ins(%u : memref<16x256xf32, #hivm.address_space<ub>>) outs(%m : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
  hivm.hir.pipe_barrier[<PIPE_V>]
  // A5:       vf_row_broadcast_f32(w, m, 16, 256, 256, 1);
  // each of the 16 row maxima fills the first 32-byte block of its row (blocks 32 apart,
  // 8 rows per repeat), then vcopy repeats that block along the row (source strides 0)
  // C220:      vbrcb((__ubuf__ uint32_t *)w, (__ubuf__ uint32_t *)m, 32, 256, 2);
  // C220-NEXT: pipe_barrier(PIPE_V);
  // C220-NEXT: for (int32_t r = 0; r < 16; ++r) {
  // C220-NEXT:   set_vector_mask(0, 248);
  // C220-NEXT:   vcopy(w + r * 256 + 8, w + r * 256, 1, 1, 0, 8, 0);
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
  // C220:      vcmin(n, u, 16, 1, 1, 32, ONLY_VALUE);
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
