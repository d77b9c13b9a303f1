// Transposed matmul operands. Both operands come to L1 with nd2nz whatever their
// orientation (the anchor loads its B^T 224x128 tile that way); the L1 -> L0 load fixes
// the orientation. dav-3510: plain B (K x N in L1) needs asc_copy_l12l0b_transpose, B^T
// (N x K) the plain asc_copy_l12l0b; A^T (K x M) asc_copy_l12l0a_transpose. dav-c220:
// load2d with the transpose flag set for A^T and plain B, clear for A and B^T, and the
// source fractals of one L0 fractal row consecutive (stride 1) for A^T and B^T.
// test_cce_emulation.py runs both kernels and checks C = A B^T and C = A^T B. The K steps
// are ascend-lower-mmad-l0's loop (ascend-compile{target=cce}); K0 is the step's first K.
// RUN: ascend-opt %s -p 'ascend-compile{target=cce}' -t 'cce{arch=dav-3510}' | filecheck %s --check-prefix=A5
// RUN: ascend-opt %s -p 'ascend-compile{target=cce chip=ascend910b}' -t 'cce{arch=dav-c220}' | filecheck %s --check-prefix=C220

// C (64x96) = A (64x256) B^T, B^T given as 96x256: K = 16 fractals, 8 per step, 2 steps
func.func @matmul_bt(%a: memref<64x256xbf16, #hivm.address_space<gm>>, %bt: memref<96x256xbf16, #hivm.address_space<gm>>, %c: memref<64x96xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIC>} {
  %true = arith.constant true
  %m = arith.constant 64 : index
  %k = arith.constant 256 : index
  %n = arith.constant 96 : index
  %la = memref.alloc() : memref<64x256xbf16, #hivm.address_space<cbuf>>
  %lb = memref.alloc() : memref<96x256xbf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<64x96xf32, #hivm.address_space<cc>>
  // B^T's 96 rows are the NZ rows: 96 per column block, source rows 512 bytes apart
  // A5:       asc_set_gm2l1_nz_para(1, 1, (uint16_t)96, 0);
  // A5-NEXT:  asc_copy_gm2l1_nd2nz(lb, bt, 512, (asc_load_l2_cache_mode)0, 96, 256, 0, 0);
  // C220:     copy_gm_to_cbuf_multi_nd2nz_b16(lb, bt, 0, 1, 96, 256, 0, 256, 96, 1, 0);
  hivm.hir.nd2nz {dst_continuous} ins(%a : memref<64x256xbf16, #hivm.address_space<gm>>) outs(%la : memref<64x256xbf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%bt : memref<96x256xbf16, #hivm.address_space<gm>>) outs(%lb : memref<96x256xbf16, #hivm.address_space<cbuf>>)
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
  // A5:       for (int64_t kk = 0; kk < 2; kk += 1) {
  // A5:         const int64_t [[K0:v[_0-9]*]] = kk * 128;
  // A: rows M (4 fractals), 8 K fractals from K0 / 16; L1 column blocks 4 fractals apart
  // A5:         asc_copy_l12l0a(l0a, la, 0, ([[K0]]) / 16, 4, 8, 4, 8);
  // B^T: plain load, N = 6 fractals, L1 column blocks (of K) 6 fractals apart
  // A5-NEXT:    asc_copy_l12l0b(l0b, lb, 0, ([[K0]]) / 16, 6, 8, 6, 6);
  // A5:         const bool [[FIRST_STEP:v[_0-9]*]] = kk == 0;
  // A5-NEXT:    const bool [[INIT:v[_0-9]*]] = true & [[FIRST_STEP]];
  // A5-NEXT:    asc_mmad(acc, l0a, l0b, 64, 128, 96, 0, false, false, [[INIT]]);
  // C220:       const int64_t [[CK0:v[_0-9]*]] = kk * 128;
  // C220:       for (int32_t ki = 0; ki < 8; ++ki) {
  // C220-NEXT:    load_cbuf_to_cb(l0b + ki * 1536, lb, (([[CK0]]) / 16 + ki) * 6, 6, 1, 0, 0, false, 0);
  // C220:       const bool [[CINIT:v[_0-9]*]] = true & {{v[_0-9]*}};
  // C220-NEXT:  mad(acc, l0a, l0b, 64, 128, 96, 0, false, false, [[CINIT]]);
  hivm.hir.mmadL1 {b_transpose} ins(%la, %lb, %true, %m, %k, %n : memref<64x256xbf16, #hivm.address_space<cbuf>>, memref<96x256xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<64x96xf32, #hivm.address_space<cc>>)
  hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
  hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<64x96xf32, #hivm.address_space<cc>>) outs(%c : memref<64x96xf32, #hivm.address_space<gm>>)
  return
}

// C (64x96) = A^T B with A^T given as 256x64 (K x M) and B as 256x96
func.func @matmul_at(%at: memref<256x64xbf16, #hivm.address_space<gm>>, %b: memref<256x96xbf16, #hivm.address_space<gm>>, %c: memref<64x96xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIC>} {
  %true = arith.constant true
  %m = arith.constant 64 : index
  %k = arith.constant 256 : index
  %n = arith.constant 96 : index
  %la = memref.alloc() : memref<256x64xbf16, #hivm.address_space<cbuf>>
  %lb = memref.alloc() : memref<256x96xbf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<64x96xf32, #hivm.address_space<cc>>
  hivm.hir.nd2nz {dst_continuous} ins(%at : memref<256x64xbf16, #hivm.address_space<gm>>) outs(%la : memref<256x64xbf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz {dst_continuous} ins(%b : memref<256x96xbf16, #hivm.address_space<gm>>) outs(%lb : memref<256x96xbf16, #hivm.address_space<cbuf>>)
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
  // A5:         const int64_t [[K0:v[_0-9]*]] = kk * 128;
  // A^T: transposing load, L1 column blocks (of M) 16 fractals (K = 256 rows) apart
  // A5:         asc_copy_l12l0a_transpose(l0a, la, 0, ([[K0]]) / 16, 4, 8, 16, 8);
  // plain B (K x N): the transposing load, L1 column blocks (of N) 16 fractals apart
  // A5-NEXT:    asc_copy_l12l0b_transpose(l0b, lb, 0, ([[K0]]) / 16, 6, 8, 16, 6);
  // C220:       const int64_t [[CK0:v[_0-9]*]] = kk * 128;
  // C220:       for (int32_t mi = 0; mi < 4; ++mi) {
  // C220-NEXT:    load_cbuf_to_ca(l0a + mi * 2048, la, mi * 16 + ([[CK0]]) / 16, 8, 1, 0, 0, true, 0);
  // C220:       for (int32_t ki = 0; ki < 8; ++ki) {
  // C220-NEXT:    load_cbuf_to_cb(l0b + ki * 1536, lb, ([[CK0]]) / 16 + ki, 6, 16, 0, 0, true, 0);
  hivm.hir.mmadL1 {a_transpose} ins(%la, %lb, %true, %m, %k, %n : memref<256x64xbf16, #hivm.address_space<cbuf>>, memref<256x96xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<64x96xf32, #hivm.address_space<cc>>)
  hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
  hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<64x96xf32, #hivm.address_space<cc>>) outs(%c : memref<64x96xf32, #hivm.address_space<gm>>)
  return
}
