// cce-emu: a header-only C++17 CPU emulation of the Ascend C calls that ascend-mlir's
// `-t cce` printer emits, for both spellings: the `asc_*` C API of dav-3510 (Ascend 950)
// and the classic dav-c220 (Ascend 910B) intrinsics.
//
// What is modelled, so that a printer bug shows up as a wrong answer or a loud failure:
//  * memories: every core owns byte arenas per on-chip scope (cube: cbuf/L1, ca/L0A,
//    cb/L0B, cc/L0C; vector: ub). A scope-qualified pointer is a byte offset into its
//    scope's arena (the printer writes `(__ubuf__ float *)(buf + 1024)` with `buf` the
//    arena's address 0, as the anchor does); each call resolves it against the calling
//    core's arena and fails when an access leaves the arena. GM pointers are host pointers.
//  * layouts: GM->L1 nd2nz writes the real NZ fractal layout (16 rows x 32 bytes,
//    column-block-major, padding zero-filled); L0A holds A's 16x16 fractals row-block-major
//    (zZ), L0B holds B's with B's columns as fractal rows (zN, as the cube reads B). The
//    L1->L0 loads get there from either orientation of the stored operand: plain copies
//    for A (M x K) and B^T (N x K), each fractal transposed for A^T (K x M) and B (K x N)
//    (`_transpose` forms, load2d's transpose flag), so a load of the wrong form is a wrong
//    answer. mmad reads those and writes L0C as 16x16 fp32 fractals column-block-major;
//    fixpipe (l0c2gm / l0c2ub) converts NZ back to ND (nz2nd must be set).
//  * numerics: bf16/fp16 inputs, fp32 accumulation in the cube (one rounding per mmad);
//    vector ops compute in fp32 and round once to the destination type (ties to even), as
//    the reference does.
//  * intra-core flags (set/wait between pipes) are counters: a wait without a matching
//    set, a set of a flag that is already set, or a flag left set at the end of the
//    kernel fails. Execution is in program order, so pipe overlap is not modelled here
//    (that is the simulator's race detector's job).
//  * each core of a MIX kernel is a thread; cross-core flags are counting semaphores.
//    A wait that can never be satisfied (every live core of the block is waiting) is a
//    deadlock, reported with the flags every core waits for; a wall-clock timeout
//    (ASC_EMU_TIMEOUT_MS, default 20000) is only a backstop.
//
// Entry point for a harness: asc_emu::launch(grid, n_cube, n_vector, caps, body, msg, len),
// `caps` the bytes of each scope (indexed by Scope) of the chip the kernel is built for:
// an access beyond them fails, as it would on that chip.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

// ----- scope qualifiers and function attributes: no-ops on the CPU -----------------------
#define __global__
#define __aicore__
#define __gm__
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __ubuf__
#define __cube__
#define __vector__
#define __mix__(cube, vec)

namespace asc_emu {

// ----- element types ---------------------------------------------------------------------
struct bfloat16_t {
  uint16_t bits;
};
struct half {
  uint16_t bits;
};

inline float to_float(float v) { return v; }
inline float to_float(bfloat16_t v) {
  uint32_t b = uint32_t(v.bits) << 16;
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
inline float to_float(half v) {
  _Float16 h;
  std::memcpy(&h, &v.bits, 2);
  return float(h);
}
template <class T> T from_float(float f);
template <> inline float from_float<float>(float f) { return f; }
template <> inline bfloat16_t from_float<bfloat16_t>(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  if ((b & 0x7fffffffu) > 0x7f800000u) return bfloat16_t{uint16_t((b >> 16) | 0x40)};  // NaN
  uint32_t lsb = (b >> 16) & 1u;
  return bfloat16_t{uint16_t((b + 0x7fffu + lsb) >> 16)};
}
template <> inline half from_float<half>(float f) {
  _Float16 h = static_cast<_Float16>(f);  // round to nearest even
  half r;
  std::memcpy(&r.bits, &h, 2);
  return r;
}

// ----- failures ----------------------------------------------------------------------------
struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum Scope { GM = 0, CBUF, CA, CB, CC, UB, NUM_SCOPES };
inline const char* scope_name(int s) {
  static const char* names[] = {"gm", "cbuf", "ca", "cb", "cc", "ub"};
  return names[s];
}
// On-chip capacities (bytes) come from the chip the harness builds for (its chip file's
// [capacity], passed to launch): the 910B's UB and L0C are smaller than the 950's.

enum Pipe { PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_FIX, NUM_PIPES };
inline const char* pipe_name(int p) {
  static const char* names[] = {"PIPE_S", "PIPE_V", "PIPE_M", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3", "PIPE_ALL", "PIPE_FIX"};
  return (p >= 0 && p < NUM_PIPES) ? names[p] : "PIPE_?";
}
constexpr int EVENTS = 8;
constexpr int CROSS_FLAGS = 16;

struct Block;

struct Core {
  Block* block = nullptr;
  bool cube = false;
  int sub_block = 0;  // which vector core (0/1); 0 for the cube
  std::string name;
  std::vector<uint8_t> arena[NUM_SCOPES];
  int flags[NUM_PIPES][NUM_PIPES][EVENTS] = {};
  // dav-3510 nd2nz parameter register, dav-c220 vector mask (counter mode)
  uint32_t nz_dst_n = 0;
  bool mask_count_mode = false;
  uint64_t mask_count = 0;  // dav-c220 vector mask: the count (counter mode) or the low lane bits
  uint64_t mask_high = 0;   // lanes 64..127 in normal mode
  const char* waiting = nullptr;  // what a blocked core waits for (deadlock report)
  int waiting_id = -1;
  const int* waiting_slot = nullptr;
};

struct Block {
  int idx = 0, num = 1;
  std::vector<std::unique_ptr<Core>> cores;  // cube first (if any), then vector cores
  int n_vector = 0;
  std::mutex mu;
  std::condition_variable cv;
  int live = 0, blocked = 0;
  bool failed = false;
  std::string failure;
  // cross-core semaphores: to_vector[v][id] (set by the cube), to_cube[id] (+16 per AIV)
  int to_vector[2][CROSS_FLAGS] = {};
  int to_cube[2 * CROSS_FLAGS] = {};

  Core* cube() {
    if (cores.empty() || !cores[0]->cube) throw Failure("no cube core in this kernel (L1 belongs to the cube)");
    return cores[0].get();
  }
  bool has_cube() const { return !cores.empty() && cores[0]->cube; }
  Core* vector(int v) {
    int base = has_cube() ? 1 : 0;
    if (v < 0 || v >= n_vector) throw Failure("no vector core " + std::to_string(v) + " in this kernel");
    return cores[base + v].get();
  }
};

inline Core*& current() {
  thread_local Core* core = nullptr;
  return core;
}
inline Core& me() {
  Core* c = current();
  if (!c) throw Failure("asc_* call outside a launched kernel");
  return *c;
}

[[noreturn]] inline void fail(const std::string& what) { throw Failure(me().name + ": " + what); }

// ----- memory resolution -----------------------------------------------------------------
inline uint8_t* resolve(Core& core, int scope, const void* p, size_t bytes, const char* what) {
  uintptr_t off = reinterpret_cast<uintptr_t>(p);
  auto& arena = core.arena[scope];  // sized at launch: empty when the core has no such memory
  if (off + bytes > arena.size())
    throw Failure(core.name + ": " + what + ": " + scope_name(scope) + " access [" + std::to_string(off) + ", " +
                  std::to_string(off + bytes) + ") is outside the " + std::to_string(arena.size()) + "-byte " +
                  scope_name(scope));
  return arena.data() + off;
}
inline uint8_t* on(int scope, const void* p, size_t bytes, const char* what) {
  return resolve(me(), scope, p, bytes, what);
}
inline void require_cube(const char* what) {
  if (!me().cube) fail(std::string(what) + " runs on the cube core, called on a vector core");
}
inline void require_vector(const char* what) {
  if (me().cube) fail(std::string(what) + " runs on a vector core, called on the cube core");
}
inline void require_aligned(const void* p, size_t align, const char* what) {
  if (reinterpret_cast<uintptr_t>(p) % align)
    fail(std::string(what) + ": on-chip address " + std::to_string(reinterpret_cast<uintptr_t>(p)) +
         " is not " + std::to_string(align) + "-byte aligned");
}

// ----- intra-core flags --------------------------------------------------------------------
inline void check_event(int from, int to, int id, const char* what) {
  if (from < 0 || from >= NUM_PIPES || to < 0 || to >= NUM_PIPES || from == PIPE_ALL || to == PIPE_ALL)
    fail(std::string(what) + ": bad pipe pair");
  if (id < 0 || id >= EVENTS) fail(std::string(what) + ": event id " + std::to_string(id) + " out of range 0..7");
  if (from == to) fail(std::string(what) + ": set and wait pipe are both " + pipe_name(from));
}
inline void flag_set(int from, int to, int id) {
  check_event(from, to, id, "set_flag");
  int& f = me().flags[from][to][id];
  if (f) fail(std::string("set_flag(") + pipe_name(from) + ", " + pipe_name(to) + ", EVENT_ID" + std::to_string(id) +
              ") while the flag is already set (its earlier set was never waited for)");
  f = 1;
}
inline void flag_wait(int from, int to, int id) {
  check_event(from, to, id, "wait_flag");
  int& f = me().flags[from][to][id];
  if (!f) fail(std::string("wait_flag(") + pipe_name(from) + ", " + pipe_name(to) + ", EVENT_ID" + std::to_string(id) +
               ") has no matching set_flag: the pipe would wait forever");
  f = 0;
}

// ----- cross-core flags --------------------------------------------------------------------
inline long timeout_ms() {
  const char* t = std::getenv("ASC_EMU_TIMEOUT_MS");
  return t ? std::atol(t) : 20000;
}
// The block's cores wait on `slot` until it is positive; deadlock when every live core waits.
inline void block_wait(int* slot, const char* what, int id) {
  Core& c = me();
  Block& b = *c.block;
  std::unique_lock<std::mutex> lock(b.mu);
  c.waiting = what;
  c.waiting_id = id;
  c.waiting_slot = slot;
  ++b.blocked;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms());
  while (*slot == 0 && !b.failed) {
    bool stuck = b.blocked == b.live;  // every live core waits, and none of them can go on
    for (auto& other : b.cores)
      if (other->waiting && other->waiting_slot && *other->waiting_slot > 0) stuck = false;
    if (stuck) {
      std::string msg = "deadlock: every core of block " + std::to_string(b.idx) + " waits for a cross-core flag:";
      for (auto& other : b.cores)
        if (other->waiting)
          msg += " " + other->name + " waits in " + other->waiting + "(" + std::to_string(other->waiting_id) + ");";
      msg += " a cross-core set is missing";
      b.failed = true;
      b.failure = msg;
      b.cv.notify_all();
      break;
    }
    if (b.cv.wait_until(lock, deadline) == std::cv_status::timeout && *slot == 0 && !b.failed) {
      b.failed = true;
      b.failure = "deadlock: " + c.name + " timed out after " + std::to_string(timeout_ms()) + " ms in " + what +
                  "(" + std::to_string(id) + ")";
      b.cv.notify_all();
    }
  }
  --b.blocked;
  c.waiting = nullptr;
  c.waiting_slot = nullptr;
  if (b.failed) throw Failure(b.failure);
  --*slot;
}
inline void block_signal(int* slot) {
  Block& b = *me().block;
  std::lock_guard<std::mutex> lock(b.mu);
  ++*slot;
  b.cv.notify_all();
}
inline void check_cross_id(int id, int limit, const char* what) {
  if (id < 0 || id >= limit) fail(std::string(what) + ": cross-core flag id " + std::to_string(id) + " out of range");
}
// Cube: id < 16 addresses vector core 0, id + 16 vector core 1. Vector core v: its arrival
// lands in the cube's slot id + 16 * v.
inline void cross_arrive(int id, const char* what) {
  Core& c = me();
  Block& b = *c.block;
  if (c.cube) {
    check_cross_id(id, 2 * CROSS_FLAGS, what);
    int v = id / CROSS_FLAGS;
    if (v >= b.n_vector) fail(std::string(what) + "(" + std::to_string(id) + ") addresses a vector core this kernel does not run");
    block_signal(&b.to_vector[v][id % CROSS_FLAGS]);
  } else {
    check_cross_id(id, CROSS_FLAGS, what);
    block_signal(&b.to_cube[id + CROSS_FLAGS * c.sub_block]);
  }
}
inline void cross_wait(int id, const char* what) {
  Core& c = me();
  Block& b = *c.block;
  if (c.cube) {
    check_cross_id(id, 2 * CROSS_FLAGS, what);
    block_wait(&b.to_cube[id], what, id);
  } else {
    check_cross_id(id, CROSS_FLAGS, what);
    block_wait(&b.to_vector[c.sub_block][id], what, id);
  }
}

// ----- launch --------------------------------------------------------------------------------
inline void run_core(Core* core, const std::function<void()>& body) {
  current() = core;
  Block& b = *core->block;
  try {
    body();
    for (int p = 0; p < NUM_PIPES; ++p)
      for (int q = 0; q < NUM_PIPES; ++q)
        for (int e = 0; e < EVENTS; ++e)
          if (core->flags[p][q][e])
            throw Failure(core->name + ": flag (" + pipe_name(p) + ", " + pipe_name(q) + ", EVENT_ID" +
                          std::to_string(e) + ") is still set at the end of the kernel");
  } catch (const std::exception& e) {
    std::lock_guard<std::mutex> lock(b.mu);
    if (!b.failed) {
      b.failed = true;
      b.failure = e.what();
    }
  }
  std::lock_guard<std::mutex> lock(b.mu);
  --b.live;
  b.cv.notify_all();
  current() = nullptr;
}

// Runs `body` once per core of every block (blocks one after the other, the cores of a
// block as threads). Returns 0, or 1 with the first failure's message in `msg`.
inline int launch(int grid, int n_cube, int n_vector, const size_t (&caps)[NUM_SCOPES],
                  const std::function<void()>& body, char* msg, size_t msg_len) {
  for (int idx = 0; idx < grid; ++idx) {
    Block b;
    b.idx = idx;
    b.num = grid;
    b.n_vector = n_vector;
    for (int i = 0; i < n_cube; ++i) {
      auto c = std::make_unique<Core>();
      c->cube = true;
      c->name = "block " + std::to_string(idx) + " cube";
      b.cores.push_back(std::move(c));
    }
    for (int v = 0; v < n_vector; ++v) {
      auto c = std::make_unique<Core>();
      c->sub_block = v;
      c->name = "block " + std::to_string(idx) + " vector " + std::to_string(v);
      b.cores.push_back(std::move(c));
    }
    for (auto& c : b.cores) {  // every memory exists before any core runs (no lazy, racy set-up)
      c->block = &b;
      for (int s : c->cube ? std::vector<int>{CBUF, CA, CB, CC} : std::vector<int>{UB}) c->arena[s].assign(caps[s], 0);
    }
    b.live = int(b.cores.size());
    std::vector<std::thread> threads;
    for (auto& c : b.cores) threads.emplace_back(run_core, c.get(), std::cref(body));
    for (auto& t : threads) t.join();
    if (b.failed) {
      std::snprintf(msg, msg_len, "%s", b.failure.c_str());
      return 1;
    }
  }
  if (msg_len) msg[0] = 0;
  return 0;
}

// ----- data movement helpers (bytes) -------------------------------------------------------
inline void bursts(uint8_t* dst, const uint8_t* src, size_t n, size_t len, size_t src_stride, size_t dst_stride) {
  for (size_t i = 0; i < n; ++i) std::memmove(dst + i * dst_stride, src + i * src_stride, len);
}
inline size_t span(size_t n, size_t len, size_t stride) { return n ? (n - 1) * stride + len : 0; }

// NZ fractal geometry of a 2-byte or 4-byte element: C0 = 32 bytes of columns.
template <class T> constexpr size_t c0() { return 32 / sizeof(T); }

// ----- cube: L1 <-> L0, mmad, fixpipe --------------------------------------------------------
// A 16 x 16 fractal of 2-byte elements is 512 bytes; the cube works on those.
constexpr size_t FRACTAL = 512;

// One 16 x 16 fractal of 2-byte elements from L1 to L0A / L0B, transposed inside or not.
inline void copy_fractal(int dst_scope, const void* dst, const void* src, bool transpose, const char* what) {
  auto* s = reinterpret_cast<const uint16_t*>(on(CBUF, src, FRACTAL, what));
  auto* d = reinterpret_cast<uint16_t*>(on(dst_scope, dst, FRACTAL, what));
  if (!transpose) {
    std::memcpy(d, s, FRACTAL);
    return;
  }
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 16; ++c) d[c * 16 + r] = s[r * 16 + c];
}

// L1 holds NZ matrices: fractal (row block rb, column block cb) of an R-row matrix sits at
// fractal index cb * (R / 16) + rb, and is stored row-major inside. `src_stride` is that
// R / 16 (the start-to-start distance of adjacent column blocks, in 512-byte fractals).
// L0A holds A (M x K) as zZ: fractal (mi, ki) at mi * dst_stride + ki, rows of A inside.
// A normal load reads A stored M x K (fractal (m, k) at k * src_stride + m); the transposed
// load reads A^T stored K x M (fractal (k, m) at m * src_stride + k) and transposes each
// fractal, so both end as the same L0A tile.
template <class T>
void l1_to_l0a(T* dst, const T* src, int m_start, int k_start, int m_step, int k_step, int src_stride, int dst_stride,
               bool transpose) {
  require_cube("L1->L0A copy");
  static_assert(sizeof(T) == 2, "the cube path models 2-byte inputs (bf16/fp16)");
  for (int mi = 0; mi < m_step; ++mi)
    for (int ki = 0; ki < k_step; ++ki) {
      int m = m_start + mi, k = k_start + ki;
      size_t from = (transpose ? size_t(m) * src_stride + k : size_t(k) * src_stride + m) * FRACTAL;
      size_t to = (size_t(mi) * dst_stride + ki) * FRACTAL;
      copy_fractal(CA, reinterpret_cast<const uint8_t*>(dst) + to, reinterpret_cast<const uint8_t*>(src) + from,
                   transpose, "L1->L0A");
    }
}

// L0B holds B (K x N) as fractal (ki, ni) at ki * dst_stride + ni with the columns of B as
// rows inside (the cube reads B fractals column-wise, "zN"). So B^T stored N x K in L1
// (fractal (n, k) at k * src_stride + n, columns of B as rows already) is a plain copy, and
// B stored K x N (fractal (k, n) at n * src_stride + k) needs the transposing load: the
// real API's split (conventional C = A B loads L0B with `_transpose`, B^T without).
template <class T>
void l1_to_l0b(T* dst, const T* src, int n_start, int k_start, int n_step, int k_step, int src_stride, int dst_stride,
               bool transpose) {
  require_cube("L1->L0B copy");
  static_assert(sizeof(T) == 2, "the cube path models 2-byte inputs (bf16/fp16)");
  for (int ki = 0; ki < k_step; ++ki)
    for (int ni = 0; ni < n_step; ++ni) {
      int n = n_start + ni, k = k_start + ki;
      size_t from = (transpose ? size_t(n) * src_stride + k : size_t(k) * src_stride + n) * FRACTAL;
      size_t to = (size_t(ki) * dst_stride + ni) * FRACTAL;
      copy_fractal(CB, reinterpret_cast<const uint8_t*>(dst) + to, reinterpret_cast<const uint8_t*>(src) + from,
                   transpose, "L1->L0B");
    }
}

// The cube: C (M x N, L0C NZ of 16x16 fp32 fractals) = A B (+ C unless zero_c). The
// bf16/fp16 products are exact; one mmad sums its K products exactly (in double here) and
// rounds once into the fp32 accumulator, as the reference rounds once per tile.matmul: a
// K-long fp32 running sum would differ from the reference by summation order alone by more
// than a few units in the last place (K = 2048 in the anchor's GEMM), which would hide
// what the emulation is for (a layout or sync bug is a wrong answer by whole values).
// Operands are widened once and the inner loop runs along N over contiguous rows, which
// the compiler vectorises: the anchor's 256x7168x2048 GEMM runs in about a second.
template <class T>
__attribute__((optimize("O3"))) void mmad(float* c, const T* a, const T* b, int m, int k, int n, bool zero_c) {
  require_cube("mmad");
  static_assert(sizeof(T) == 2, "the cube path models 2-byte inputs (bf16/fp16)");
  int mf = (m + 15) / 16, kf = (k + 15) / 16, nf = (n + 15) / 16;
  auto* A = reinterpret_cast<const T*>(on(CA, a, size_t(mf) * kf * FRACTAL, "mmad A"));
  auto* B = reinterpret_cast<const T*>(on(CB, b, size_t(kf) * nf * FRACTAL, "mmad B"));
  auto* C = reinterpret_cast<float*>(on(CC, c, size_t(mf) * nf * 1024, "mmad C"));
  std::vector<double> av(size_t(m) * k), bv(size_t(k) * n), row(n);
  for (int i = 0; i < m; ++i)
    for (int x = 0; x < k; ++x) av[size_t(i) * k + x] = to_float(A[(size_t(i / 16) * kf + x / 16) * 256 + (i % 16) * 16 + x % 16]);
  for (int x = 0; x < k; ++x)
    for (int j = 0; j < n; ++j) bv[size_t(x) * n + j] = to_float(B[(size_t(x / 16) * nf + j / 16) * 256 + (j % 16) * 16 + x % 16]);
  for (int i = 0; i < m; ++i) {
    double* r = row.data();
    for (int j = 0; j < n; ++j) r[j] = 0.0;
    for (int x = 0; x < k; ++x) {
      const double s = av[size_t(i) * k + x];
      const double* bx = bv.data() + size_t(x) * n;
      for (int j = 0; j < n; ++j) r[j] += s * bx[j];
    }
    for (int j = 0; j < n; ++j) {
      float& out = C[(size_t(j / 16) * mf + i / 16) * 256 + (i % 16) * 16 + j % 16];
      out = zero_c ? float(r[j]) : out + float(r[j]);
    }
  }
}

// L0C (NZ, 16x16 fp32 fractals, src_stride rows per column block) -> ND rows at dst.
template <class D>
void l0c_to_nd(D* dst, const float* src_cc, int n, int m, int dst_stride, int src_stride, bool relu, int row0 = 0) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float v = src_cc[(size_t(j / 16) * src_stride + (row0 + i)) * 16 + j % 16];
      if (relu && v < 0) v = 0;
      dst[size_t(i) * dst_stride + j] = from_float<D>(v);
    }
}

template <class D>
void fixpipe_to_gm(D* dst, const float* src, int n, int m, int dst_stride, int src_stride, int relu, int nz2nd) {
  require_cube("fixpipe L0C->GM");
  if (!nz2nd) fail("fixpipe L0C->GM without nz2nd: only the ND output is modelled");
  auto* cc = reinterpret_cast<const float*>(on(CC, src, size_t(src_stride) * ((n + 15) / 16) * 64, "fixpipe L0C->GM"));
  l0c_to_nd(dst, cc, n, m, dst_stride, src_stride, relu != 0);
}

template <class D>
void fixpipe_to_ub(D* dst, const float* src, int n, int m, int dst_stride, int src_stride, int sub_block, int dual,
                   int relu, int nz2nd) {
  require_cube("fixpipe L0C->UB");
  if (!nz2nd) fail("fixpipe L0C->UB without nz2nd: only the ND output is modelled");
  Block& b = *me().block;
  auto* cc = reinterpret_cast<const float*>(on(CC, src, size_t(src_stride) * ((n + 15) / 16) * 64, "fixpipe L0C->UB"));
  if (dual) {  // rows split evenly between the two vector cores
    if (b.n_vector != 2) fail("fixpipe dual destination in a kernel without two vector cores");
    int half_m = m / 2;
    for (int v = 0; v < 2; ++v) {
      Core& vc = *b.vector(v);
      auto* d = reinterpret_cast<D*>(resolve(vc, UB, dst, span(half_m, n * sizeof(D), dst_stride * sizeof(D)), "fixpipe L0C->UB"));
      l0c_to_nd(d, cc, n, half_m, dst_stride, src_stride, relu != 0, v * half_m);
    }
    return;
  }
  Core& vc = *b.vector(sub_block);
  auto* d = reinterpret_cast<D*>(resolve(vc, UB, dst, span(m, n * sizeof(D), dst_stride * sizeof(D)), "fixpipe L0C->UB"));
  l0c_to_nd(d, cc, n, m, dst_stride, src_stride, relu != 0);
}

// GM (ND, row stride in elements) -> L1 NZ with dst_n rows per column block.
template <class T>
void nd2nz(T* dst, const T* src, size_t src_row_stride, int n_rows, int d_cols, uint32_t dst_n) {
  require_cube("GM->L1 nd2nz");
  require_aligned(dst, 512, "GM->L1 nd2nz");
  constexpr size_t C0 = c0<T>();
  if (dst_n < uint32_t(n_rows) || dst_n % 16) fail("nd2nz: dst_n must be the row count rounded up to 16");
  size_t col_blocks = (d_cols + C0 - 1) / C0;
  auto* d = reinterpret_cast<T*>(on(CBUF, dst, col_blocks * dst_n * 32, "GM->L1 nd2nz"));
  std::memset(d, 0, col_blocks * dst_n * 32);  // padding rows/columns read as zero
  for (int r = 0; r < n_rows; ++r)
    for (int c = 0; c < d_cols; ++c) d[((c / C0) * dst_n + r) * C0 + c % C0] = src[r * src_row_stride + c];
}

// ----- vector unit: elementwise in fp32, rounded once ----------------------------------------
template <class T> T* ub(T* p, size_t count, const char* what) {
  require_vector(what);
  return reinterpret_cast<T*>(on(UB, p, count * sizeof(T), what));
}
template <class T, class F> void unary(T* dst, const T* src, uint32_t n, F f, const char* what) {
  T* d = ub(dst, n, what);
  const T* s = ub(const_cast<T*>(src), n, what);
  for (uint32_t i = 0; i < n; ++i) d[i] = from_float<T>(f(to_float(s[i])));
}
template <class T, class F> void binary(T* dst, const T* a, const T* b, uint32_t n, F f, const char* what) {
  T* d = ub(dst, n, what);
  const T* x = ub(const_cast<T*>(a), n, what);
  const T* y = ub(const_cast<T*>(b), n, what);
  for (uint32_t i = 0; i < n; ++i) d[i] = from_float<T>(f(to_float(x[i]), to_float(y[i])));
}
template <class T, class F> void with_scalar(T* dst, const T* src, float s, uint32_t n, F f, const char* what) {
  T* d = ub(dst, n, what);
  const T* x = ub(const_cast<T*>(src), n, what);
  for (uint32_t i = 0; i < n; ++i) d[i] = from_float<T>(f(to_float(x[i]), s));
}
template <class D, class S> void cast(D* dst, const S* src, uint32_t n, const char* what) {
  D* d = ub(dst, n, what);
  const S* s = ub(const_cast<S*>(src), n, what);
  for (uint32_t i = 0; i < n; ++i) d[i] = from_float<D>(to_float(s[i]));
}
template <class T> void duplicate(T* dst, float v, uint32_t n, const char* what) {
  T* d = ub(dst, n, what);
  for (uint32_t i = 0; i < n; ++i) d[i] = from_float<T>(v);
}
inline float op_add(float a, float b) { return a + b; }
inline float op_sub(float a, float b) { return a - b; }
inline float op_mul(float a, float b) { return a * b; }
inline float op_div(float a, float b) { return a / b; }
inline float op_max(float a, float b) { return std::isnan(a) || std::isnan(b) ? NAN : (a > b ? a : b); }
inline float op_min(float a, float b) { return std::isnan(a) || std::isnan(b) ? NAN : (a < b ? a : b); }
// exp and ln in double, rounded once to float: what the reference computes
// (ascend_mlir/sim/reference_numerics.py UNARY), bit for bit; float expf/logf and
// numpy's float32 loops are approximations that differ in the last bit
inline float op_exp(float a) { return static_cast<float>(std::exp(static_cast<double>(a))); }
inline float op_ln(float a) { return static_cast<float>(std::log(static_cast<double>(a))); }
inline float op_abs(float a) { return std::fabs(a); }
inline float op_relu(float a) { return a > 0 ? a : (std::isnan(a) ? a : 0.0f); }
inline float op_sqrt(float a) { return std::sqrt(a); }
inline float op_rsqrt(float a) { return 1.0f / std::sqrt(a); }
inline float op_rec(float a) { return 1.0f / a; }

}  // namespace asc_emu

using asc_emu::bfloat16_t;
using asc_emu::half;
using asc_emu::Pipe;
using asc_emu::PIPE_S;
using asc_emu::PIPE_V;
using asc_emu::PIPE_M;
using asc_emu::PIPE_MTE1;
using asc_emu::PIPE_MTE2;
using asc_emu::PIPE_MTE3;
using asc_emu::PIPE_ALL;
using asc_emu::PIPE_FIX;
typedef int event_t;

#define block_idx (asc_emu::me().block->idx)
#define block_num (asc_emu::me().block->num)

#include "asc_emu_3510.h"
#include "asc_emu_reg.h"
#include "asc_emu_c220.h"
