// GM <-> UB copies: bursts, burst lengths and strides come from the memref layouts.
// RUN: ascend-opt %s -p 'ascend-compile{target=cce}' -t 'cce{arch=dav-3510}' | filecheck %s --check-prefix=A5
// RUN: ascend-opt %s -p 'ascend-compile{target=cce chip=ascend910b}' -t 'cce{arch=dav-c220}' | filecheck %s --check-prefix=C220

func.func @dma(%x: memref<64x96xf32, #hivm.address_space<gm>>, %y: memref<64x96xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
  %c16 = arith.constant 16 : index
  %u = memref.alloc() : memref<16x32xf32, #hivm.address_space<ub>>
  %w = memref.alloc() : memref<16x96xf32, #hivm.address_space<ub>>
  %xs = memref.subview %x[%c16, 32] [16, 32] [1, 1] : memref<64x96xf32, #hivm.address_space<gm>> to memref<16x32xf32, strided<[96, 1], offset: ?>, #hivm.address_space<gm>>
  %xr = memref.subview %x[%c16, 0] [16, 96] [1, 1] : memref<64x96xf32, #hivm.address_space<gm>> to memref<16x96xf32, strided<[96, 1], offset: ?>, #hivm.address_space<gm>>
  %ws = memref.subview %w[0, 64] [16, 32] [1, 1] : memref<16x96xf32, #hivm.address_space<ub>> to memref<16x32xf32, strided<[96, 1], offset: 64>, #hivm.address_space<ub>>
  // A5:      __ubuf__ uint8_t *ub_buf = (__ubuf__ uint8_t *)0;
  // A5:      __ubuf__ float *u = (__ubuf__ float *)(ub_buf + 0);
  // A5-NEXT: __ubuf__ float *w = (__ubuf__ float *)(ub_buf + 2048);
  // A5:      __gm__ float *xs = x + 16 * 96 + 32;
  // A5:      __ubuf__ float *ws = w + 64;
  // one burst per row of 128 bytes, source rows 384 bytes apart, UB rows packed
  // A5:      asc_copy_gm2ub_align(u, xs, 16, 128, 0, 0, false, (asc_load_l2_cache_mode)0, 384, 128);  // {{.*}}dma.mlir:[[# @LINE + 3]]
  // C220 (GM gap 256 bytes, UB gap 0 blocks):
  // C220:    copy_gm_to_ubuf_align_b32(u, xs, 0, 16, 128, 0, 0, 256, 0);
  hivm.hir.load ins(%xs : memref<16x32xf32, strided<[96, 1], offset: ?>, #hivm.address_space<gm>>) outs(%u : memref<16x32xf32, #hivm.address_space<ub>>)
  // a contiguous source and destination: one burst
  // A5:      asc_copy_gm2ub_align(w, xr, 1, 6144, 0, 0, false, (asc_load_l2_cache_mode)0, 6144, 6144);
  // C220:    copy_gm_to_ubuf_align_b32(w, xr, 0, 1, 6144, 0, 0, 0, 0);
  hivm.hir.load ins(%xr : memref<16x96xf32, strided<[96, 1], offset: ?>, #hivm.address_space<gm>>) outs(%w : memref<16x96xf32, #hivm.address_space<ub>>)
  %ys = memref.subview %y[0, 0] [16, 32] [1, 1] : memref<64x96xf32, #hivm.address_space<gm>> to memref<16x32xf32, strided<[96, 1]>, #hivm.address_space<gm>>
  // UB rows 384 bytes apart (gap 8 blocks after a 128-byte burst), GM rows 384 bytes apart
  // A5:      asc_copy_ub2gm_align(ys, ws, 16, 128, (asc_store_l2_cache_mode)0, 384, 384);
  // C220:    copy_ubuf_to_gm_align_b32(ys, ws, 0, 16, 128, 0, 0, 8, 256);
  hivm.hir.store ins(%ws : memref<16x32xf32, strided<[96, 1], offset: 64>, #hivm.address_space<ub>>) outs(%ys : memref<16x32xf32, strided<[96, 1]>, #hivm.address_space<gm>>)
  return
}
