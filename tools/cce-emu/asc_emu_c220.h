// cce-emu: the classic dav-c220 (Ascend 910B) CCE intrinsics the printer emits.
// Units: GM-side burst lengths and gaps in bytes, UB/L1-side gaps and lengths in 32-byte
// blocks (the `_align_b*` forms), nd2nz strides in elements, load2d in 16x16 fractals.
// Vector ops run in counter mode: `set_mask_count()` once, then `set_vector_mask(0, n)`
// before each op, which then processes n consecutive elements (strides 1 / 8 required).
#pragma once

enum event_id_t { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };

#define ASCEND_IS_AIC (asc_emu::me().cube)
#define ASCEND_IS_AIV (!asc_emu::me().cube)
#define KERNEL_TASK_TYPE_DEFAULT(type)

inline void set_ffts_base_addr(int64_t) {}
inline int64_t get_subblockid() { return asc_emu::me().sub_block; }
inline int64_t get_block_idx() { return block_idx; }

inline void set_flag(Pipe from, Pipe to, int id) { asc_emu::flag_set(from, to, id); }
inline void wait_flag(Pipe from, Pipe to, int id) { asc_emu::flag_wait(from, to, id); }
inline void pipe_barrier(Pipe) {}

// config = 1 | mode << 4 | flag_id << 8; mode 2 = between the cube and the vector cores of
// one group: the cube's set reaches every vector core, the cube's wait needs every vector core.
inline void ffts_cross_core_sync(Pipe, uint64_t config) {
  using namespace asc_emu;
  int mode = int((config >> 4) & 0xf), id = int((config >> 8) & 0xf);
  if ((config & 1) == 0 || mode != 2) fail("ffts_cross_core_sync: only mode 2 (cube <-> vector of one group) is modelled");
  Core& c = me();
  if (c.cube) {
    for (int v = 0; v < c.block->n_vector; ++v) block_signal(&c.block->to_vector[v][id]);
  } else {
    block_signal(&c.block->to_cube[id + CROSS_FLAGS * c.sub_block]);
  }
}
inline void wait_flag_dev(int64_t id) {
  using namespace asc_emu;
  Core& c = me();
  if (id < 0 || id >= CROSS_FLAGS) fail("wait_flag_dev: flag id out of range");
  if (c.cube) {
    for (int v = 0; v < c.block->n_vector; ++v) block_wait(&c.block->to_cube[id + CROSS_FLAGS * v], "wait_flag_dev", int(id));
  } else {
    block_wait(&c.block->to_vector[c.sub_block][id], "wait_flag_dev", int(id));
  }
}

// ----- DMA ---------------------------------------------------------------------------------------
template <class T>
void c220_gm_to_ubuf(T* dst, T* src, uint16_t n_burst, uint32_t len_burst, uint8_t l_pad, uint8_t r_pad,
                     uint32_t src_gap, uint32_t dst_gap, const char* what) {
  using namespace asc_emu;
  require_vector(what);
  require_aligned(dst, 32, what);
  if (l_pad || r_pad) fail(std::string(what) + ": padding is not modelled");
  size_t dst_stride = (len_burst + 31) / 32 * 32 + size_t(dst_gap) * 32, src_stride = len_burst + size_t(src_gap);
  uint8_t* d = on(UB, dst, span(n_burst, len_burst, dst_stride), what);
  bursts(d, reinterpret_cast<const uint8_t*>(src), n_burst, len_burst, src_stride, dst_stride);
}
template <class T>
void c220_ubuf_to_gm(T* dst, T* src, uint16_t n_burst, uint32_t len_burst, uint8_t l_pad, uint8_t r_pad,
                     uint32_t src_gap, uint32_t dst_gap, const char* what) {
  using namespace asc_emu;
  require_vector(what);
  require_aligned(src, 32, what);
  if (l_pad || r_pad) fail(std::string(what) + ": padding is not modelled");
  size_t src_stride = (len_burst + 31) / 32 * 32 + size_t(src_gap) * 32, dst_stride = len_burst + size_t(dst_gap);
  const uint8_t* s = on(UB, src, span(n_burst, len_burst, src_stride), what);
  bursts(reinterpret_cast<uint8_t*>(dst), s, n_burst, len_burst, src_stride, dst_stride);
}
#define ASC_EMU_C220_DMA(SUFFIX)                                                                              \
  template <class T>                                                                                         \
  void copy_gm_to_ubuf_align_##SUFFIX(T* dst, T* src, uint8_t, uint16_t n_burst, uint32_t len_burst,         \
                                      uint8_t l_pad, uint8_t r_pad, uint32_t src_gap, uint32_t dst_gap) {    \
    c220_gm_to_ubuf(dst, src, n_burst, len_burst, l_pad, r_pad, src_gap, dst_gap, "copy_gm_to_ubuf_align");  \
  }                                                                                                          \
  template <class T>                                                                                         \
  void copy_ubuf_to_gm_align_##SUFFIX(T* dst, T* src, uint8_t, uint16_t n_burst, uint32_t len_burst,         \
                                      uint8_t l_pad, uint8_t r_pad, uint32_t src_gap, uint32_t dst_gap) {    \
    c220_ubuf_to_gm(dst, src, n_burst, len_burst, l_pad, r_pad, src_gap, dst_gap, "copy_ubuf_to_gm_align");  \
  }
ASC_EMU_C220_DMA(b8)
ASC_EMU_C220_DMA(b16)
ASC_EMU_C220_DMA(b32)
#undef ASC_EMU_C220_DMA

inline void copy_ubuf_to_cbuf(void* dst, void* src, uint8_t, uint16_t n_burst, uint16_t len_burst, uint16_t src_gap,
                              uint16_t dst_gap) {
  using namespace asc_emu;
  require_vector("copy_ubuf_to_cbuf");
  require_aligned(src, 32, "copy_ubuf_to_cbuf");
  size_t len = size_t(len_burst) * 32, ss = len + size_t(src_gap) * 32, ds = len + size_t(dst_gap) * 32;
  const uint8_t* s = on(UB, src, span(n_burst, len, ss), "copy_ubuf_to_cbuf");
  uint8_t* d = resolve(*me().block->cube(), CBUF, dst, span(n_burst, len, ds), "copy_ubuf_to_cbuf");
  bursts(d, s, n_burst, len, ss, ds);
}

// src_d_value: source row stride in elements; dst_nz_c0_stride: rows per column block in L1.
template <class T>
void c220_nd2nz(T* dst, T* src, uint16_t nd_num, uint16_t n_value, uint16_t d_value, uint16_t src_d_value,
                uint16_t dst_nz_c0_stride, uint16_t dst_nz_n_stride) {
  if (nd_num != 1 || dst_nz_n_stride != 1) asc_emu::fail("copy_gm_to_cbuf_multi_nd2nz: only one ND matrix is modelled");
  asc_emu::nd2nz(dst, src, src_d_value, n_value, d_value, dst_nz_c0_stride);
}
template <class T>
void copy_gm_to_cbuf_multi_nd2nz_b16(T* dst, T* src, uint8_t, uint16_t nd_num, uint16_t n_value, uint16_t d_value,
                                     uint16_t, uint16_t src_d_value, uint16_t dst_nz_c0_stride,
                                     uint16_t dst_nz_n_stride, uint16_t) {
  static_assert(sizeof(T) == 2, "b16 form");
  c220_nd2nz(dst, src, nd_num, n_value, d_value, src_d_value, dst_nz_c0_stride, dst_nz_n_stride);
}
template <class T>
void copy_gm_to_cbuf_multi_nd2nz_b32s(T* dst, T* src, uint8_t, uint16_t nd_num, uint16_t n_value, uint16_t d_value,
                                      uint16_t, uint16_t src_d_value, uint16_t dst_nz_c0_stride,
                                      uint16_t dst_nz_n_stride, uint16_t) {
  static_assert(sizeof(T) == 4, "b32s form");
  c220_nd2nz(dst, src, nd_num, n_value, d_value, src_d_value, dst_nz_c0_stride, dst_nz_n_stride);
}

// load2d: `repeat` fractals from fractal base_idx of src, src_stride fractals apart, to
// consecutive fractals of dst (plus dst_gap), each transposed when `transpose` is set:
// A from an M x K NZ matrix and B^T from an N x K one load as they are; A^T (K x M) and
// B (K x N) load transposed (the L0 layouts are asc_emu.h's).
template <class T>
void c220_load2d(int scope, T* dst, T* src, uint16_t base_idx, uint8_t repeat, uint16_t src_stride, uint16_t dst_gap,
                 bool transpose, const char* what) {
  using namespace asc_emu;
  require_cube(what);
  static_assert(sizeof(T) == 2, "the cube path models 2-byte inputs (bf16/fp16)");
  for (int i = 0; i < repeat; ++i)
    copy_fractal(scope, dst + size_t(i) * (1 + dst_gap) * 256, src + size_t(base_idx + i * src_stride) * 256, transpose,
                 what);
}
template <class T>
void load_cbuf_to_ca(T* dst, T* src, uint16_t base_idx, uint8_t repeat, uint16_t src_stride, uint16_t dst_gap, uint8_t,
                     bool transpose, uint8_t) {
  c220_load2d(asc_emu::CA, dst, src, base_idx, repeat, src_stride, dst_gap, transpose, "load_cbuf_to_ca");
}
template <class T>
void load_cbuf_to_cb(T* dst, T* src, uint16_t base_idx, uint8_t repeat, uint16_t src_stride, uint16_t dst_gap, uint8_t,
                     bool transpose, uint8_t) {
  c220_load2d(asc_emu::CB, dst, src, base_idx, repeat, src_stride, dst_gap, transpose, "load_cbuf_to_cb");
}
template <class T>
void mad(float* c, T* a, T* b, uint16_t m, uint16_t k, uint16_t n, uint8_t unit_flag, bool k_direction_align,
         bool cmatrix_source, bool cmatrix_init_val) {
  if (unit_flag || k_direction_align || cmatrix_source) asc_emu::fail("mad: unit flag / bias source are not modelled");
  asc_emu::mmad(c, a, b, m, k, n, cmatrix_init_val);
}
template <class D>
void copy_matrix_cc_to_gm(D* dst, float* src, uint8_t, uint16_t n, uint16_t m, uint32_t dst_stride,
                          uint16_t src_stride, uint8_t unit_flag, uint64_t quant_pre, uint8_t relu_pre,
                          bool channel_split, bool nz2nd_en) {
  if (unit_flag || channel_split) asc_emu::fail("copy_matrix_cc_to_gm: unit flag / channel split are not modelled");
  (void)quant_pre;
  asc_emu::fixpipe_to_gm(dst, src, n, m, dst_stride, src_stride, relu_pre, nz2nd_en);
}

// ----- vector unit, counter mode -------------------------------------------------------------
inline void set_mask_count() { asc_emu::me().mask_count_mode = true; }
inline void set_mask_norm() { asc_emu::me().mask_count_mode = false; }
inline void set_vector_mask(uint64_t high, uint64_t low) {
  asc_emu::me().mask_count = low;
  asc_emu::me().mask_high = high;
}
inline uint32_t c220_count(uint8_t blk0, uint8_t blk1, uint8_t rep0, uint8_t rep1, const char* what) {
  using namespace asc_emu;
  Core& c = me();
  if (!c.mask_count_mode) fail(std::string(what) + ": vector mask is not in counter mode (set_mask_count)");
  if (blk0 != 1 || blk1 != 1 || rep0 != 8 || rep1 != 8) fail(std::string(what) + ": only contiguous strides are modelled");
  return uint32_t(c.mask_count);
}
#define ASC_EMU_C220_BINARY(NAME, OP)                                                                            \
  template <class T>                                                                                             \
  void NAME(T* dst, T* a, T* b, uint8_t, uint8_t d_blk, uint8_t a_blk, uint8_t, uint8_t d_rep, uint8_t a_rep,   \
            uint8_t) {                                                                                           \
    asc_emu::binary(dst, a, b, c220_count(d_blk, a_blk, d_rep, a_rep, #NAME), asc_emu::OP, #NAME);             \
  }
ASC_EMU_C220_BINARY(vadd, op_add)
ASC_EMU_C220_BINARY(vsub, op_sub)
ASC_EMU_C220_BINARY(vmul, op_mul)
ASC_EMU_C220_BINARY(vdiv, op_div)
ASC_EMU_C220_BINARY(vmax, op_max)
ASC_EMU_C220_BINARY(vmin, op_min)
#undef ASC_EMU_C220_BINARY
#define ASC_EMU_C220_UNARY(NAME, OP)                                                                       \
  template <class T> void NAME(T* dst, T* src, uint8_t, uint16_t d_blk, uint16_t s_blk, uint8_t d_rep,     \
                               uint8_t s_rep) {                                                            \
    asc_emu::unary(dst, src, c220_count(d_blk, s_blk, d_rep, s_rep, #NAME), asc_emu::OP, #NAME);           \
  }
ASC_EMU_C220_UNARY(vexp, op_exp)
ASC_EMU_C220_UNARY(vln, op_ln)
ASC_EMU_C220_UNARY(vabs, op_abs)
ASC_EMU_C220_UNARY(vrelu, op_relu)
ASC_EMU_C220_UNARY(vsqrt, op_sqrt)
ASC_EMU_C220_UNARY(vrsqrt, op_rsqrt)
ASC_EMU_C220_UNARY(vrec, op_rec)
#undef ASC_EMU_C220_UNARY
// The repeat engine of the classic vector unit: repeat i, lane l of a 256-byte repeat reads
// base + i * rep_stride * 32 + (l / lanes_per_block) * blk_stride * 32 + (l % lanes_per_block)
// * sizeof(T) (strides in 32-byte blocks). Counter mode: the mask holds the element count,
// spread over as many repeats as it takes (the repeat argument is ignored); normal mode:
// `repeat` repeats, lane l active when its bit of the (high, low) mask is set.
namespace asc_emu {
template <class T> struct c220_lanes {
  static constexpr int per_repeat = 256 / sizeof(T), per_block = 32 / sizeof(T);
  static size_t offset(int i, int l, int blk, int rep) {
    return size_t(i) * rep * 32 + size_t(l / per_block) * blk * 32 + size_t(l % per_block) * sizeof(T);
  }
};
// calls f(repeat, lane) for every active lane; returns the number of repeats
template <class T, class F> int c220_each_lane(int repeat, F f, const char* what) {
  Core& c = me();
  require_vector(what);
  constexpr int n = c220_lanes<T>::per_repeat;
  if (c.mask_count_mode) {
    uint64_t count = c.mask_count;
    int repeats = int((count + n - 1) / n);
    for (int i = 0; i < repeats; ++i)
      for (int l = 0; l < n && uint64_t(i) * n + l < count; ++l) f(i, l);
    return repeats;
  }
  for (int i = 0; i < repeat; ++i)
    for (int l = 0; l < n; ++l)
      if (l < 64 ? (c.mask_count >> l) & 1 : (c.mask_high >> (l - 64)) & 1) f(i, l);
  return repeat;
}
template <class T> T& c220_at(T* base, size_t byte_offset, const char* what) {
  require_aligned(base, 32, what);
  return *reinterpret_cast<T*>(on(UB, reinterpret_cast<uint8_t*>(base) + byte_offset, sizeof(T), what));
}
}  // namespace asc_emu

template <class T> void vcopy(T* dst, T* src, uint8_t repeat, uint16_t d_blk, uint16_t s_blk, uint8_t d_rep, uint8_t s_rep) {
  using namespace asc_emu;
  c220_each_lane<T>(repeat, [&](int i, int l) {
    c220_at(dst, c220_lanes<T>::offset(i, l, d_blk, d_rep), "vcopy") = c220_at(src, c220_lanes<T>::offset(i, l, s_blk, s_rep), "vcopy");
  }, "vcopy");
}

// Whole reduce: repeat i reduces its active lanes to one result at dst[i * dst_rep_stride]
// (units of one result; ONLY_VALUE for vcmax/vcmin, mode 0 = write dst for vcadd).
enum Order_t { VALUE_INDEX = 0, INDEX_VALUE = 1, ONLY_VALUE = 2, ONLY_INDEX = 3 };
namespace asc_emu {
template <class T, class F> void c220_whole_reduce(T* dst, T* src, uint8_t repeat, uint16_t dst_rep, uint16_t src_blk,
                                                   uint16_t src_rep, F f, const char* what) {
  std::vector<float> acc(256);
  std::vector<bool> seen(256);
  int repeats = c220_each_lane<T>(repeat, [&](int i, int l) {
    if (size_t(i) >= acc.size()) acc.resize(i + 1), seen.resize(i + 1);
    float v = to_float(c220_at(src, c220_lanes<T>::offset(i, l, src_blk, src_rep), what));
    acc[i] = seen[i] ? f(acc[i], v) : v;
    seen[i] = true;
  }, what);
  for (int i = 0; i < repeats; ++i)
    if (seen[i]) c220_at(dst, size_t(i) * dst_rep * sizeof(T), what) = from_float<T>(acc[i]);
}
}  // namespace asc_emu
template <class T> void vcmax(T* dst, T* src, uint8_t repeat, uint16_t dst_rep, uint16_t src_blk, uint16_t src_rep, Order_t order) {
  if (order != ONLY_VALUE) asc_emu::fail("vcmax: only ONLY_VALUE results are modelled");
  asc_emu::c220_whole_reduce(dst, src, repeat, dst_rep, src_blk, src_rep, asc_emu::op_max, "vcmax");
}
template <class T> void vcmin(T* dst, T* src, uint8_t repeat, uint16_t dst_rep, uint16_t src_blk, uint16_t src_rep, Order_t order) {
  if (order != ONLY_VALUE) asc_emu::fail("vcmin: only ONLY_VALUE results are modelled");
  asc_emu::c220_whole_reduce(dst, src, repeat, dst_rep, src_blk, src_rep, asc_emu::op_min, "vcmin");
}
template <class T> void vcadd(T* dst, T* src, uint8_t repeat, uint16_t dst_rep, uint16_t src_blk, uint16_t src_rep, int mode) {
  if (mode != 0) asc_emu::fail("vcadd: only mode 0 (results to dst) is modelled, not accumulation into ACC");
  asc_emu::c220_whole_reduce(dst, src, repeat, dst_rep, src_blk, src_rep, asc_emu::op_add, "vcadd");
}

// Block broadcast: repeat i takes src[8 i .. 8 i + 8) and fills, for each k, the 32-byte block
// at dst + (i * dst_rep_stride + k * dst_blk_stride) * 32 with src[8 i + k]. The vector mask
// does not apply (Ascend C's Brcb resets it).
template <class T> void vbrcb(T* dst, T* src, uint16_t dst_blk, uint16_t dst_rep, uint8_t repeat) {
  using namespace asc_emu;
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "vbrcb moves 16- or 32-bit elements");
  require_vector("vbrcb");
  require_aligned(dst, 32, "vbrcb");
  require_aligned(src, 32, "vbrcb");
  constexpr int per_block = 32 / sizeof(T);
  const T* s = reinterpret_cast<const T*>(on(UB, src, size_t(repeat) * 8 * sizeof(T), "vbrcb"));
  for (int i = 0; i < repeat; ++i)
    for (int k = 0; k < 8; ++k) {
      T* block = reinterpret_cast<T*>(on(UB, reinterpret_cast<uint8_t*>(dst) + (size_t(i) * dst_rep + size_t(k) * dst_blk) * 32,
                                         32, "vbrcb"));
      for (int e = 0; e < per_block; ++e) block[e] = s[i * 8 + k];
    }
}
#define ASC_EMU_C220_SCALAR(NAME, OP)                                                                      \
  template <class T> void NAME(T* dst, T* src, float s, uint8_t, uint16_t d_blk, uint16_t s_blk,           \
                               uint8_t d_rep, uint8_t s_rep) {                                             \
    asc_emu::with_scalar(dst, src, s, c220_count(d_blk, s_blk, d_rep, s_rep, #NAME), asc_emu::OP, #NAME);  \
  }
ASC_EMU_C220_SCALAR(vadds, op_add)
ASC_EMU_C220_SCALAR(vsubs, op_sub)
ASC_EMU_C220_SCALAR(vmuls, op_mul)
ASC_EMU_C220_SCALAR(vdivs, op_div)
ASC_EMU_C220_SCALAR(vmaxs, op_max)
ASC_EMU_C220_SCALAR(vmins, op_min)
#undef ASC_EMU_C220_SCALAR
template <class T> void vector_dup(T* dst, float value, uint8_t, uint16_t d_blk, uint16_t s_blk, uint8_t d_rep, uint8_t s_rep) {
  asc_emu::duplicate(dst, value, c220_count(d_blk, s_blk == 0 ? 1 : s_blk, d_rep, s_rep == 0 ? 8 : s_rep, "vector_dup"), "vector_dup");
}
#define ASC_EMU_C220_CONV(NAME, D, S)                                                                     \
  inline void NAME(D* dst, S* src, uint8_t, uint16_t d_blk, uint16_t s_blk, uint8_t d_rep, uint8_t s_rep) { \
    asc_emu::cast(dst, src, c220_count(d_blk, s_blk, d_rep, s_rep, #NAME), #NAME);                        \
  }
ASC_EMU_C220_CONV(vconv_f322bf16r, bfloat16_t, float)
ASC_EMU_C220_CONV(vconv_f322f16r, half, float)
ASC_EMU_C220_CONV(vconv_bf162f32, float, bfloat16_t)
ASC_EMU_C220_CONV(vconv_f162f32, float, half)
#undef ASC_EMU_C220_CONV
