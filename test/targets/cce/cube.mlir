// Cube path: GM -> L1 nd2nz, mmadL1 lowered by ascend-lower-mmad-l0 (run by
// ascend-compile{target=cce}) into a K-step loop of L1 -> L0A/L0B moves and L0 multiplies
// on ping-pong halves (the chip's last two MTE1 <-> M event ids, 6 and 7), fixpipe to GM.
// The printer prints the IR's loop, flags and event ids, one call per op.
// RUN: ascend-opt %s -p 'ascend-compile{target=cce}' -t 'cce{arch=dav-3510}' | filecheck %s --check-prefix=A5
// RUN: ascend-opt %s -p 'ascend-compile{target=cce chip=ascend910b}' -t 'cce{arch=dav-c220}' | filecheck %s --check-prefix=C220

func.func @cube(%a: memref<128x512xbf16, #hivm.address_space<gm>>, %b: memref<256x128xbf16, #hivm.address_space<gm>>, %c: memref<128x128xf32, #hivm.address_space<gm>>, %first: i1) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIC>} {
  %m = arith.constant 128 : index
  %k = arith.constant 256 : index
  %la = memref.alloc() : memref<128x256xbf16, #hivm.address_space<cbuf>>
  %lb = memref.alloc() : memref<256x128xbf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<128x128xf32, #hivm.address_space<cc>>
  %as = memref.subview %a[0, 256] [128, 256] [1, 1] : memref<128x512xbf16, #hivm.address_space<gm>> to memref<128x256xbf16, strided<[512, 1], offset: 256>, #hivm.address_space<gm>>
  // A5:       extern "C" __global__ __cube__ void cube(__gm__ bfloat16_t *a, __gm__ bfloat16_t *b, __gm__ float *c, bool first)
  // A5-NEXT:  asc_init();
  // both L0 halves start free (the M -> MTE1 WAR events primed)
  // A5:       asc_sync_notify(PIPE_M, PIPE_MTE1, (event_t)6);
  // A5-NEXT:  asc_sync_notify(PIPE_M, PIPE_MTE1, (event_t)7);
  // C220:     set_flag(PIPE_M, PIPE_MTE1, EVENT_ID6);
  // C220-NEXT: set_flag(PIPE_M, PIPE_MTE1, EVENT_ID7);
  // A5:       __cbuf__ bfloat16_t *la = (__cbuf__ bfloat16_t *)(l1_buf + 0);
  // A5-NEXT:  __cbuf__ bfloat16_t *lb = (__cbuf__ bfloat16_t *)(l1_buf + 65536);
  // nd2nz: 128 rows padded to 128 per column block, source rows 1024 bytes apart
  // A5:       asc_set_gm2l1_nz_para(1, 1, (uint16_t)128, 0);
  // A5-NEXT:  asc_copy_gm2l1_nd2nz(la, as, 1024, (asc_load_l2_cache_mode)0, 128, 256, 0, 0);
  // C220:     copy_gm_to_cbuf_multi_nd2nz_b16(la, as, 0, 1, 128, 256, 0, 512, 128, 1, 0);
  hivm.hir.nd2nz {dst_continuous} ins(%as : memref<128x256xbf16, strided<[512, 1], offset: 256>, #hivm.address_space<gm>>) outs(%la : memref<128x256xbf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%b : memref<256x128xbf16, #hivm.address_space<gm>>) outs(%lb : memref<256x128xbf16, #hivm.address_space<cbuf>>)
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
  // A5:       asc_sync_notify(PIPE_MTE2, PIPE_MTE1, (event_t)0);
  // A5-NEXT:  asc_sync_wait(PIPE_MTE2, PIPE_MTE1, (event_t)0);
  // K = 256 is 16 fractals; 8 per step fit half of L0A (128 x 128 bf16) and L0B: 2 steps;
  // the half (and its event, 6 + half) alternates with the step
  // A5-NEXT:  for (int64_t kk = 0; kk < 2; kk += 1) {
  // A5-NEXT:    const int64_t [[HALF:v[_0-9]*]] = (int64_t)((uint64_t)kk % (uint64_t)2);
  // A5-NEXT:    const int64_t [[EV:v[_0-9]*]] = [[HALF]] + 6;
  // A5-NEXT:    const int64_t [[OFF:v[_0-9]*]] = [[HALF]] * 32768;
  // A5-NEXT:    __ca__ bfloat16_t *l0a = (__ca__ bfloat16_t *)(l0a_buf + [[OFF]]);
  // A5-NEXT:    __cb__ bfloat16_t *l0b = (__cb__ bfloat16_t *)(l0b_buf + [[OFF]]);
  // A5-NEXT:    const int64_t [[K0:v[_0-9]*]] = kk * 128;
  // A5-NEXT:    asc_sync_wait(PIPE_M, PIPE_MTE1, (event_t)([[EV]]));
  // A5-NEXT:    asc_copy_l12l0a(l0a, la, 0, ([[K0]]) / 16, 8, 8, 8, 8);
  // plain B (K x N in L1) is loaded with the transposing form (the cube reads B as zN)
  // A5-NEXT:    asc_copy_l12l0b_transpose(l0b, lb, 0, ([[K0]]) / 16, 8, 8, 16, 8);
  // A5-NEXT:    asc_sync_notify(PIPE_MTE1, PIPE_M, (event_t)([[EV]]));
  // A5-NEXT:    asc_sync_wait(PIPE_MTE1, PIPE_M, (event_t)([[EV]]));
  // the zero-C flag holds for the first step only
  // A5-NEXT:    const bool [[FIRST_STEP:v[_0-9]*]] = kk == 0;
  // A5-NEXT:    const bool [[INIT:v[_0-9]*]] = first & [[FIRST_STEP]];
  // A5-NEXT:    asc_mmad(acc, l0a, l0b, 128, 128, 128, 0, false, false, [[INIT]]);
  // A5-NEXT:    asc_sync_notify(PIPE_M, PIPE_MTE1, (event_t)([[EV]]));
  // A5-NEXT:  }
  // C220:       const int64_t [[CK0:v[_0-9]*]] = kk * 128;
  // C220-NEXT:  wait_flag(PIPE_M, PIPE_MTE1, (event_t)([[CEV:v[_0-9]*]]));
  // C220-NEXT:  for (int32_t mi = 0; mi < 8; ++mi) {
  // C220-NEXT:    load_cbuf_to_ca(l0a + mi * 2048, la, (([[CK0]]) / 16) * 8 + mi, 8, 8, 0, 0, false, 0);
  // C220:       for (int32_t ki = 0; ki < 8; ++ki) {
  // C220-NEXT:    load_cbuf_to_cb(l0b + ki * 2048, lb, ([[CK0]]) / 16 + ki, 8, 16, 0, 0, true, 0);
  // C220:       set_flag(PIPE_MTE1, PIPE_M, (event_t)([[CEV]]));
  // C220:       mad(acc, l0a, l0b, 128, 128, 128, 0, false, false, {{v[_0-9]*}});
  // C220-NEXT:  set_flag(PIPE_M, PIPE_MTE1, (event_t)([[CEV]]));
  hivm.hir.mmadL1 ins(%la, %lb, %first, %m, %k, %m : memref<128x256xbf16, #hivm.address_space<cbuf>>, memref<256x128xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<128x128xf32, #hivm.address_space<cc>>)
  hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
  // fixpipe: NZ -> ND, L0C rows per column block 128, GM rows 128 elements apart
  // A5:       asc_set_l0c_copy_nz_para(1, 0, 0);
  // A5-NEXT:  asc_copy_l0c2gm(c, acc, 128, 128, 128, 128, (asc_store_l2_cache_mode)0, (asc_unit_flag_mode)0, (asc_quant_mode)0, (asc_relu_pre_mode)0, 0, 1, 0, 0);
  // C220:     copy_matrix_cc_to_gm(c, acc, 0, 128, 128, 128, 128, 0, 0, 0, 0, 1);
  hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<128x128xf32, #hivm.address_space<cc>>) outs(%c : memref<128x128xf32, #hivm.address_space<gm>>)
  // the L0 halves are drained at the end
  // A5:       asc_sync_wait(PIPE_M, PIPE_MTE1, (event_t)6);
  // A5-NEXT:  asc_sync_wait(PIPE_M, PIPE_MTE1, (event_t)7);
  // C220:     wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID6);
  // C220-NEXT: wait_flag(PIPE_M, PIPE_MTE1, EVENT_ID7);
  return
}
