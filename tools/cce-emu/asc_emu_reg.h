// cce-emu: the dav-3510 (Ascend 950) register SIMD the printer's `__simd_vf__` helpers use.
// A vector register holds one 256-byte VL: 64 fp32 or 128 fp16/bf16 lanes, kept here as
// fp32 values rounded to the lane type after every operation (so a register op rounds as
// the device's does). `vector_bool` holds one flag per logical lane plus the lane width it
// was made for; a mask of another width is a failure, as the docs require width-matched
// masks. Masked arithmetic zeroes the inactive destination lanes (MODE_ZEROING); masked
// stores leave inactive elements untouched.
//
// Calls (argument order as documented for the C API of dav-3510):
//   asc_update_mask_b32/b16(uint32_t& count)   low min(count, lanes) lanes; count -= that
//   asc_create_mask_b32/b16(PAT_ALL | PAT_VLn) all lanes / the low n lanes
//   asc_loadalign(reg, ub_ptr)                  one VL from a 32-byte aligned address
//   asc_storealign(ub_ptr, reg, mask)           active lanes to a 32-byte aligned address
//   asc_loadunalign_pre(ureg, p); asc_loadunalign(reg, ureg, p)   one VL from any address
//   asc_storeunalign(p, ureg, reg, count); asc_storeunalign_post(p0, ureg, offset):
//       the low `count` lanes to any address; bytes past the last 32-byte boundary stay in
//       the store register until the next unaligned store or the post (offset: elements
//       from p0 to the end of what was stored), so a missing post loses them
//   asc_reduce_max/min(dst, src, mask)          dst[0] = max/min of the active lanes (an
//       empty mask gives -inf/+inf), dst[1] = its lowest index (as the lane's bits), rest 0
//   asc_reduce_sum(dst, src, mask)              dst[0] = sum of the active lanes, rest 0
//   asc_add/sub/mul/div/max/min(dst, a, b, mask), asc_exp/ln/abs/relu/sqrt(dst, src, mask),
//   asc_add/mul/max/min_scalar(dst, src, value, mask), asc_duplicate_scalar(dst, value, mask):
//                                               lane-wise, in fp32, rounded to the lane type
//   asc_duplicate(dst, src, mask)               src lane 0 into every active lane
// A VL read past the end of UB reads zeros there (only the active lanes matter; a buffer
// at the very top of UB would make the device read out of range: not modelled).
#pragma once

#define __simd_vf__

enum asc_mask_pattern { PAT_ALL = 0, PAT_VL1 = 1, PAT_VL2 = 2, PAT_VL4 = 4, PAT_VL8 = 8, PAT_VL16 = 16,
                        PAT_VL32 = 32, PAT_VL64 = 64, PAT_VL128 = 128 };

namespace asc_emu {

constexpr size_t VL = 256;

template <class T> struct vreg {
  static constexpr int lanes = int(VL / sizeof(T));
  float lane[VL / sizeof(T)] = {};
};

struct vmask {
  int width = 0;  // element bytes the mask was made for
  bool on[VL] = {};
};

inline vmask make_mask(int width, uint32_t active) {
  vmask m;
  m.width = width;
  for (uint32_t i = 0; i < VL / width && i < active; ++i) m.on[i] = true;
  return m;
}

template <class T> void check_mask(const vmask& m, const char* what) {
  if (m.width != int(sizeof(T)))
    fail(std::string(what) + ": a b" + std::to_string(8 * m.width) + " mask used on " + std::to_string(8 * sizeof(T)) +
         "-bit lanes");
}

template <class T> float round_lane(float v) { return to_float(from_float<T>(v)); }

struct load_unalign {
  const void* armed = nullptr;  // the address asc_loadunalign_pre prepared
};
struct store_unalign {
  std::vector<uint8_t> bytes;  // the buffered tail and where it goes
  uintptr_t at = 0;
};

inline void flush(store_unalign& u, const char* what) {
  if (u.bytes.empty()) return;
  std::memcpy(on(UB, reinterpret_cast<void*>(u.at), u.bytes.size(), what), u.bytes.data(), u.bytes.size());
  u.bytes.clear();
}

template <class T> void load_lanes(vreg<T>& dst, const T* src, const char* what) {
  require_vector(what);
  uintptr_t at = reinterpret_cast<uintptr_t>(src);
  size_t size = me().arena[UB].size();
  if (at >= size) fail(std::string(what) + ": UB address " + std::to_string(at) + " is outside UB");
  size_t n = std::min<size_t>(vreg<T>::lanes, (size - at) / sizeof(T));
  const T* p = reinterpret_cast<const T*>(on(UB, src, n * sizeof(T), what));
  for (int i = 0; i < vreg<T>::lanes; ++i) dst.lane[i] = size_t(i) < n ? to_float(p[i]) : 0.0f;
}

template <class T, class F> void lanewise(vreg<T>& dst, const vreg<T>& a, const vreg<T>& b, const vmask& m, F f,
                                          const char* what) {
  check_mask<T>(m, what);
  for (int i = 0; i < vreg<T>::lanes; ++i) dst.lane[i] = m.on[i] ? round_lane<T>(f(a.lane[i], b.lane[i])) : 0.0f;
}

template <class T, class F> void reduce_lanes(vreg<T>& dst, const vreg<T>& src, const vmask& m, F f, float empty,
                                              bool with_index, const char* what) {
  check_mask<T>(m, what);
  float acc = empty;
  bool first = true;
  for (int i = 0; i < vreg<T>::lanes; ++i) {
    if (!m.on[i]) continue;
    acc = first ? src.lane[i] : f(acc, src.lane[i]);
    first = false;
  }
  int index = 0;  // the lowest active lane holding the result (the first NaN for NaN)
  for (int i = vreg<T>::lanes - 1; i >= 0; --i)
    if (m.on[i] && (src.lane[i] == acc || (std::isnan(acc) && std::isnan(src.lane[i])))) index = i;
  vreg<T> out;
  out.lane[0] = round_lane<T>(acc);
  if (with_index) {
    T bits{};
    uint32_t idx = uint32_t(index);
    std::memcpy(&bits, &idx, sizeof(T) < 4 ? sizeof(T) : 4);
    out.lane[1] = to_float(bits);
  }
  dst = out;
}

}  // namespace asc_emu

using vector_float = asc_emu::vreg<float>;
using vector_half = asc_emu::vreg<half>;
using vector_bfloat16_t = asc_emu::vreg<bfloat16_t>;
using vector_bool = asc_emu::vmask;
using vector_load_unalign = asc_emu::load_unalign;
using vector_store_unalign = asc_emu::store_unalign;

inline vector_bool asc_update_mask_b32(uint32_t& count) {
  uint32_t n = count < 64 ? count : 64;
  count -= n;
  return asc_emu::make_mask(4, n);
}
inline vector_bool asc_update_mask_b16(uint32_t& count) {
  uint32_t n = count < 128 ? count : 128;
  count -= n;
  return asc_emu::make_mask(2, n);
}
inline vector_bool asc_create_mask_b32(asc_mask_pattern p) { return asc_emu::make_mask(4, p == PAT_ALL ? 64 : uint32_t(p)); }
inline vector_bool asc_create_mask_b16(asc_mask_pattern p) { return asc_emu::make_mask(2, p == PAT_ALL ? 128 : uint32_t(p)); }

template <class T> void asc_loadalign(asc_emu::vreg<T>& dst, T* src) {
  asc_emu::require_aligned(src, 32, "asc_loadalign");
  asc_emu::load_lanes(dst, src, "asc_loadalign");
}
template <class T> void asc_storealign(T* dst, asc_emu::vreg<T> src, vector_bool mask) {
  using namespace asc_emu;
  require_vector("asc_storealign");
  require_aligned(dst, 32, "asc_storealign");
  check_mask<T>(mask, "asc_storealign");
  int last = -1;
  for (int i = 0; i < vreg<T>::lanes; ++i)
    if (mask.on[i]) last = i;
  if (last < 0) return;
  T* d = reinterpret_cast<T*>(on(UB, dst, size_t(last + 1) * sizeof(T), "asc_storealign"));
  for (int i = 0; i <= last; ++i)
    if (mask.on[i]) d[i] = from_float<T>(src.lane[i]);
}
template <class T> void asc_loadunalign_pre(vector_load_unalign& u, T* src) { u.armed = src; }
template <class T> void asc_loadunalign(asc_emu::vreg<T>& dst, vector_load_unalign& u, T* src) {
  if (u.armed != src) asc_emu::fail("asc_loadunalign: the load register was not prepared for this address (asc_loadunalign_pre)");
  asc_emu::load_lanes(dst, src, "asc_loadunalign");
}
template <class T> void asc_storeunalign(T* dst, vector_store_unalign& u, asc_emu::vreg<T> src, uint32_t count) {
  using namespace asc_emu;
  require_vector("asc_storeunalign");
  if (count > uint32_t(vreg<T>::lanes)) fail("asc_storeunalign: more elements than one register holds");
  flush(u, "asc_storeunalign");
  uintptr_t start = reinterpret_cast<uintptr_t>(dst), end = start + count * sizeof(T), cut = end / 32 * 32;
  if (cut < start) cut = start;
  std::vector<uint8_t> bytes(count * sizeof(T));
  for (uint32_t i = 0; i < count; ++i) {
    T v = from_float<T>(src.lane[i]);
    std::memcpy(bytes.data() + i * sizeof(T), &v, sizeof(T));
  }
  if (cut > start) std::memcpy(on(UB, dst, cut - start, "asc_storeunalign"), bytes.data(), cut - start);
  u.bytes.assign(bytes.begin() + (cut - start), bytes.end());
  u.at = cut;
}
template <class T> void asc_storeunalign_post(T* dst, vector_store_unalign& u, int32_t offset) {
  using namespace asc_emu;
  if (!u.bytes.empty() && u.at + u.bytes.size() != reinterpret_cast<uintptr_t>(dst + offset))
    fail("asc_storeunalign_post: offset " + std::to_string(offset) + " does not end where the buffered tail ends");
  flush(u, "asc_storeunalign_post");
}

#define ASC_EMU_REG_BINARY(NAME, OP)                                                                              \
  template <class T> void NAME(asc_emu::vreg<T>& dst, asc_emu::vreg<T> a, asc_emu::vreg<T> b, vector_bool mask) { \
    asc_emu::lanewise(dst, a, b, mask, asc_emu::OP, #NAME);                                                       \
  }
ASC_EMU_REG_BINARY(asc_add, op_add)
ASC_EMU_REG_BINARY(asc_sub, op_sub)
ASC_EMU_REG_BINARY(asc_mul, op_mul)
ASC_EMU_REG_BINARY(asc_div, op_div)
ASC_EMU_REG_BINARY(asc_max, op_max)
ASC_EMU_REG_BINARY(asc_min, op_min)
#undef ASC_EMU_REG_BINARY
#define ASC_EMU_REG_UNARY(NAME, OP)                                                                      \
  template <class T> void NAME(asc_emu::vreg<T>& dst, asc_emu::vreg<T> src, vector_bool mask) {            \
    asc_emu::lanewise(dst, src, src, mask, [](float a, float) { return asc_emu::OP(a); }, #NAME);         \
  }
ASC_EMU_REG_UNARY(asc_exp, op_exp)
ASC_EMU_REG_UNARY(asc_ln, op_ln)
ASC_EMU_REG_UNARY(asc_abs, op_abs)
ASC_EMU_REG_UNARY(asc_relu, op_relu)
ASC_EMU_REG_UNARY(asc_sqrt, op_sqrt)
#undef ASC_EMU_REG_UNARY
// the scalar operand is converted to the lane type first, as the typed overloads take it
#define ASC_EMU_REG_SCALAR(NAME, OP)                                                                     \
  template <class T> void NAME(asc_emu::vreg<T>& dst, asc_emu::vreg<T> src, float value, vector_bool mask) { \
    float v = asc_emu::round_lane<T>(value);                                                             \
    asc_emu::lanewise(dst, src, src, mask, [v](float a, float) { return asc_emu::OP(a, v); }, #NAME);     \
  }
ASC_EMU_REG_SCALAR(asc_add_scalar, op_add)
ASC_EMU_REG_SCALAR(asc_mul_scalar, op_mul)
ASC_EMU_REG_SCALAR(asc_max_scalar, op_max)
ASC_EMU_REG_SCALAR(asc_min_scalar, op_min)
#undef ASC_EMU_REG_SCALAR
template <class T> void asc_duplicate_scalar(asc_emu::vreg<T>& dst, float value, vector_bool mask) {
  asc_emu::check_mask<T>(mask, "asc_duplicate_scalar");
  float v = asc_emu::round_lane<T>(value);
  for (int i = 0; i < asc_emu::vreg<T>::lanes; ++i) dst.lane[i] = mask.on[i] ? v : 0.0f;
}

template <class T> void asc_reduce_max(asc_emu::vreg<T>& dst, asc_emu::vreg<T> src, vector_bool mask) {
  asc_emu::reduce_lanes(dst, src, mask, asc_emu::op_max, -INFINITY, true, "asc_reduce_max");
}
template <class T> void asc_reduce_min(asc_emu::vreg<T>& dst, asc_emu::vreg<T> src, vector_bool mask) {
  asc_emu::reduce_lanes(dst, src, mask, asc_emu::op_min, INFINITY, true, "asc_reduce_min");
}
template <class T> void asc_reduce_sum(asc_emu::vreg<T>& dst, asc_emu::vreg<T> src, vector_bool mask) {
  asc_emu::reduce_lanes(dst, src, mask, asc_emu::op_add, 0.0f, false, "asc_reduce_sum");
}
template <class T> void asc_duplicate(asc_emu::vreg<T>& dst, asc_emu::vreg<T> src, vector_bool mask) {
  asc_emu::check_mask<T>(mask, "asc_duplicate");
  float v = src.lane[0];
  for (int i = 0; i < asc_emu::vreg<T>::lanes; ++i) dst.lane[i] = mask.on[i] ? v : 0.0f;
}
