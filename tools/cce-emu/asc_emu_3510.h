// cce-emu: the dav-3510 (Ascend 950) `asc_*` C API calls the printer emits.
// Units (as the printer writes them): DMA burst lengths and strides in bytes; nd2nz source
// row stride in bytes; L1->L0 starts/steps/strides in 16x16 fractals; fixpipe sizes and
// strides in elements (src_stride = rows of L0C per column block).
#pragma once

enum asc_load_l2_cache_mode { ASC_L2_NORMAL = 0 };
enum asc_store_l2_cache_mode { ASC_L2_STORE_NORMAL = 0 };
enum asc_dual_dst_mode { ASC_DUAL_NONE = 0, ASC_DUAL_SPLIT_M = 1 };
enum asc_unit_flag_mode { ASC_UNIT_FLAG_NONE = 0 };
enum asc_quant_mode { ASC_QUANT_NONE = 0, ASC_QUANT_F322BF16 = 1, ASC_QUANT_F322F16 = 2 };
enum asc_relu_pre_mode { ASC_RELU_NONE = 0, ASC_RELU_NORMAL = 1 };

#define ASC_IS_AIC (asc_emu::me().cube)
#define ASC_IS_AIV (!asc_emu::me().cube)

inline void asc_init() { asc_emu::me(); }
inline void asc_set_ffts_base_addr(int64_t) {}  // cross-core flags live in the emulated block
inline int64_t asc_get_sub_block_id() { return asc_emu::me().sub_block; }
inline int64_t asc_get_block_idx() { return block_idx; }

// ----- GM <-> UB, UB -> L1 ---------------------------------------------------------------------
template <class T>
void asc_copy_gm2ub_align(T* dst, T* src, uint16_t n_burst, uint32_t burst_len, uint8_t l_pad, uint8_t r_pad,
                          bool data_select, asc_load_l2_cache_mode, uint64_t src_stride, uint32_t dst_stride) {
  using namespace asc_emu;
  require_vector("asc_copy_gm2ub_align");
  require_aligned(dst, 32, "asc_copy_gm2ub_align");
  if (l_pad || r_pad || data_select) fail("asc_copy_gm2ub_align: padding is not modelled");
  if (n_burst > 1 && dst_stride % 32) fail("asc_copy_gm2ub_align: UB bursts must start on 32-byte blocks");
  uint8_t* d = on(UB, dst, span(n_burst, burst_len, dst_stride), "asc_copy_gm2ub_align");
  bursts(d, reinterpret_cast<const uint8_t*>(src), n_burst, burst_len, src_stride, dst_stride);
}

template <class T>
void asc_copy_ub2gm_align(T* dst, T* src, uint16_t n_burst, uint32_t burst_len, asc_store_l2_cache_mode,
                          uint64_t dst_stride, uint32_t src_stride) {
  using namespace asc_emu;
  require_vector("asc_copy_ub2gm_align");
  require_aligned(src, 32, "asc_copy_ub2gm_align");
  if (n_burst > 1 && src_stride % 32) fail("asc_copy_ub2gm_align: UB bursts must start on 32-byte blocks");
  const uint8_t* s = on(UB, src, span(n_burst, burst_len, src_stride), "asc_copy_ub2gm_align");
  bursts(reinterpret_cast<uint8_t*>(dst), s, n_burst, burst_len, src_stride, dst_stride);
}

// burst_len and gaps in 32-byte blocks
inline void asc_copy_ub2l1(void* dst, void* src, uint16_t burst_num, uint16_t burst_len, uint16_t src_gap,
                           uint16_t dst_gap) {
  using namespace asc_emu;
  require_vector("asc_copy_ub2l1");
  require_aligned(src, 32, "asc_copy_ub2l1");
  size_t len = size_t(burst_len) * 32, ss = len + size_t(src_gap) * 32, ds = len + size_t(dst_gap) * 32;
  const uint8_t* s = on(UB, src, span(burst_num, len, ss), "asc_copy_ub2l1");
  // L1 belongs to the cube of this vector core's block
  Core& cube = *me().block->cube();
  uint8_t* d = resolve(cube, CBUF, dst, span(burst_num, len, ds), "asc_copy_ub2l1");
  bursts(d, s, burst_num, len, ss, ds);
}

// ----- GM -> L1 with ND -> NZ --------------------------------------------------------------------
inline void asc_set_gm2l1_nz_para(uint16_t nd_num, uint16_t src_nd_stride, uint16_t dst_nz_c0_stride,
                                  uint16_t dst_nz_matrix_stride) {
  if (nd_num != 1 || dst_nz_matrix_stride != 0 || src_nd_stride != 1)
    asc_emu::fail("asc_set_gm2l1_nz_para: only one ND matrix per copy is modelled");
  asc_emu::me().nz_dst_n = dst_nz_c0_stride;
}

template <class T>
void asc_copy_gm2l1_nd2nz(T* dst, T* src, uint64_t loop1_src_stride, asc_load_l2_cache_mode, uint16_t n_value,
                          uint32_t d_value, uint64_t loop4_src_stride, bool smallc0_en) {
  using namespace asc_emu;
  if (loop4_src_stride || smallc0_en) fail("asc_copy_gm2l1_nd2nz: loop4 / small-C0 modes are not modelled");
  if (loop1_src_stride % sizeof(T)) fail("asc_copy_gm2l1_nd2nz: source row stride is not a whole element");
  nd2nz(dst, src, loop1_src_stride / sizeof(T), n_value, d_value, me().nz_dst_n);
}

// ----- L1 -> L0A / L0B, mmad -------------------------------------------------------------------
// The 2D loads (dst, src, start of the tile in the row direction of the L0 operand (M for
// A, N for B), start in K, steps in both, src_stride, dst_stride), all in 16x16 fractals
// (one K unit = 32 bytes = 16 bf16/fp16 elements). src_stride: fractals between adjacent
// column blocks of the L1 NZ matrix (its rows / 16); dst_stride: fractals between
// adjacent fractal rows of the L0 tile (K steps for L0A, N steps for L0B). Conventional
// C = A B is `asc_copy_l12l0a` + `asc_copy_l12l0b_transpose`; A^T uses
// `asc_copy_l12l0a_transpose`, B^T `asc_copy_l12l0b` (see asc_emu.h for the layouts).
template <class T>
void asc_copy_l12l0a(T* dst, T* src, uint16_t m_start, uint16_t k_start, uint8_t m_step, uint8_t k_step,
                     int16_t src_stride, uint16_t dst_stride) {
  asc_emu::l1_to_l0a(dst, src, m_start, k_start, m_step, k_step, src_stride, dst_stride, false);
}
template <class T>
void asc_copy_l12l0a_transpose(T* dst, T* src, uint16_t m_start, uint16_t k_start, uint8_t m_step, uint8_t k_step,
                               int16_t src_stride, uint16_t dst_stride) {
  asc_emu::l1_to_l0a(dst, src, m_start, k_start, m_step, k_step, src_stride, dst_stride, true);
}
template <class T>
void asc_copy_l12l0b(T* dst, T* src, uint16_t n_start, uint16_t k_start, uint8_t n_step, uint8_t k_step,
                     int16_t src_stride, uint16_t dst_stride) {
  asc_emu::l1_to_l0b(dst, src, n_start, k_start, n_step, k_step, src_stride, dst_stride, false);
}
template <class T>
void asc_copy_l12l0b_transpose(T* dst, T* src, uint16_t n_start, uint16_t k_start, uint8_t n_step, uint8_t k_step,
                               int16_t src_stride, uint16_t dst_stride) {
  asc_emu::l1_to_l0b(dst, src, n_start, k_start, n_step, k_step, src_stride, dst_stride, true);
}
template <class T>
void asc_mmad(float* c, T* a, T* b, uint16_t m, uint16_t k, uint16_t n, uint8_t unit_flag, bool gemv_ctrl,
              bool bt_ctrl, bool zero_c) {
  if (unit_flag || gemv_ctrl || bt_ctrl) asc_emu::fail("asc_mmad: unit flag / gemv / bias table are not modelled");
  asc_emu::mmad(c, a, b, m, k, n, zero_c);
}

// ----- fixpipe L0C -> GM / UB -----------------------------------------------------------------
inline void asc_set_l0c_copy_nz_para(uint16_t, uint16_t, uint16_t) {}

template <class D>
void asc_copy_l0c2gm(D* dst, float* src, uint16_t n, uint16_t m, uint32_t dst_stride, uint16_t src_stride,
                     asc_store_l2_cache_mode, asc_unit_flag_mode, asc_quant_mode, asc_relu_pre_mode relu,
                     bool channel_split, bool nz2nd_en, bool nz2dn_en, bool clip_relu) {
  if (channel_split || nz2dn_en || clip_relu) asc_emu::fail("asc_copy_l0c2gm: split / nz2dn / clip relu are not modelled");
  asc_emu::fixpipe_to_gm(dst, src, n, m, dst_stride, src_stride, relu, nz2nd_en);
}

template <class D>
void asc_copy_l0c2ub(D* dst, float* src, uint16_t n, uint16_t m, uint32_t dst_stride, uint16_t src_stride,
                     uint8_t sub_block, asc_dual_dst_mode dual, asc_unit_flag_mode, asc_quant_mode,
                     asc_relu_pre_mode relu, bool split_en, bool nz2nd_en, bool nz2dn_en, bool clip_relu) {
  if (split_en || nz2dn_en || clip_relu) asc_emu::fail("asc_copy_l0c2ub: split / nz2dn / clip relu are not modelled");
  asc_emu::fixpipe_to_ub(dst, src, n, m, dst_stride, src_stride, sub_block, dual, relu, nz2nd_en);
}

// ----- flags and barriers ----------------------------------------------------------------------
inline void asc_sync_notify(Pipe from, Pipe to, event_t id) { asc_emu::flag_set(from, to, id); }
inline void asc_sync_wait(Pipe from, Pipe to, event_t id) { asc_emu::flag_wait(from, to, id); }
inline void asc_sync_pipe(Pipe) {}  // program order already completes every earlier op
inline void asc_sync() {}
inline void asc_sync_intra_arrive(Pipe, int64_t id) { asc_emu::cross_arrive(int(id), "asc_sync_intra_arrive"); }
inline void asc_sync_intra_wait(Pipe, int64_t id) { asc_emu::cross_wait(int(id), "asc_sync_intra_wait"); }

// ----- vector unit -------------------------------------------------------------------------------
// Vector compute is register SIMD in __simd_vf__ functions (asc_emu_reg.h). The conversions
// below are the count form `asc_<a>2<b>(dst, src, count)` the printer still emits for
// vcast: the one vector spelling here that dav-3510's C API lacks (see targets/cce/__init__.py).
inline void asc_float2bfloat16(bfloat16_t* dst, float* src, uint32_t count) { asc_emu::cast(dst, src, count, "asc_float2bfloat16"); }
inline void asc_float2half(half* dst, float* src, uint32_t count) { asc_emu::cast(dst, src, count, "asc_float2half"); }
inline void asc_bfloat162float(float* dst, bfloat16_t* src, uint32_t count) { asc_emu::cast(dst, src, count, "asc_bfloat162float"); }
inline void asc_half2float(float* dst, half* src, uint32_t count) { asc_emu::cast(dst, src, count, "asc_half2float"); }
