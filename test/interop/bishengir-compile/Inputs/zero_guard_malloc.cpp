// An LD_PRELOAD allocator for bishengir-compile 1.2.0: every heap block is preceded by
// 16 zero bytes. Why: its ConvertHFusionToHIVM reads `op.getResult(0)` of every
// `hivm.hir.mmadL1`, which in memref form has no result, so it reads the 16 bytes before
// the op's allocation as a value and walks that "value"'s use list. Whether it segfaults
// depends on what the heap left there (see mmadl1-heap-ub.mlir). With zero bytes the
// use list is empty and the rest of the pipeline runs as it would on a lucky heap.
// Test tooling only: it changes no byte of the input or of bishengir's decisions.
#include <cerrno>
#include <cstddef>
#include <cstring>

extern "C" {
void *__libc_malloc(size_t);
void __libc_free(void *);
void *__libc_memalign(size_t, size_t);

// before each block p: [p-32: requested size][p-24: the underlying block][p-16: 16 zeros]
static const size_t kPad = 32;

static void *guard(char *base, size_t offset, size_t n) {
  if (base == nullptr) return nullptr;
  char *p = base + offset;
  reinterpret_cast<size_t *>(p)[-4] = n;
  reinterpret_cast<char **>(p)[-3] = base;
  std::memset(p - 16, 0, 16);
  return p;
}

static char *base_of(void *p) { return reinterpret_cast<char **>(p)[-3]; }

void *malloc(size_t n) { return guard(static_cast<char *>(__libc_malloc(n + kPad)), kPad, n); }
void free(void *p) { if (p != nullptr) __libc_free(base_of(p)); }
void *calloc(size_t a, size_t b) {
  size_t n = a * b;
  void *p = malloc(n);
  if (p != nullptr) std::memset(p, 0, n);
  return p;
}
size_t malloc_usable_size(void *p) { return p == nullptr ? 0 : reinterpret_cast<size_t *>(p)[-4]; }
void *realloc(void *p, size_t n) {
  if (p == nullptr) return malloc(n);
  if (n == 0) { free(p); return nullptr; }
  void *q = malloc(n);
  if (q == nullptr) return nullptr;
  size_t old = malloc_usable_size(p);
  std::memcpy(q, p, old < n ? old : n);
  free(p);
  return q;
}
void *memalign(size_t align, size_t n) {
  if (align < 16) align = 16;
  size_t offset = align >= kPad ? align : kPad;
  return guard(static_cast<char *>(__libc_memalign(align, n + offset)), offset, n);
}
int posix_memalign(void **out, size_t align, size_t n) {
  void *p = memalign(align, n);
  if (p == nullptr) return ENOMEM;
  *out = p;
  return 0;
}
void *aligned_alloc(size_t align, size_t n) { return memalign(align, n); }
void *valloc(size_t n) { return memalign(4096, n); }
void *pvalloc(size_t n) { return memalign(4096, (n + 4095) & ~static_cast<size_t>(4095)); }
}
