// Vector ops: one call per contiguous run, a loop over rows for strided views. dav-3510
// calls a `__simd_vf__` helper per op and element type (register SIMD: 64 fp32 lanes per
// step under an asc_update_mask_b32 tail mask), each printed once before the kernel;
// dav-c220 calls the intrinsic in counter mode (set_vector_mask(0, count) before each).
// A5:      // asc_add over n consecutive elements, 64 per register
// A5-NEXT: __simd_vf__ inline void vf_add_f32(__ubuf__ float *dst, __ubuf__ float *src0, __ubuf__ float *src1, uint32_t n) {
// A5-NEXT:   vector_float x;
// A5-NEXT:   vector_float y;
// A5-NEXT:   uint32_t count = n;
// A5-NEXT:   for (uint32_t i = 0; i < n; i += 64) {
// A5-NEXT:     vector_bool mask = asc_update_mask_b32(count);
// A5-NEXT:     asc_loadalign(x, src0 + i);
// A5-NEXT:     asc_loadalign(y, src1 + i);
// A5-NEXT:     asc_add(x, x, y, mask);
// A5-NEXT:     asc_storealign(dst + i, x, mask);
// the scalar operand comes in as fp32
// A5:      __simd_vf__ inline void vf_mul_scalar_f32(__ubuf__ float *dst, __ubuf__ float *src, float value, uint32_t n) {
// A5:          asc_mul_scalar(x, x, value, mask);
// a fill spreads the scalar, no load
// A5:      __simd_vf__ inline void vf_duplicate_f32(__ubuf__ float *dst, float value, uint32_t n) {
// A5-NOT:      asc_loadalign
// A5:          asc_duplicate_scalar(x, value, mask);
// the conversion keeps its count form (no register spelling printed yet)
// A5-NOT:  vf_float2bfloat16
// RUN: ascend-opt %s -p 'ascend-compile{target=cce}' -t 'cce{arch=dav-3510}' | filecheck %s --check-prefix=A5
// RUN: ascend-opt %s -p 'ascend-compile{target=cce chip=ascend910b}' -t 'cce{arch=dav-c220}' | filecheck %s --check-prefix=C220

func.func @vector(%s: f32) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
  %a = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
  %r = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
  %h = memref.alloc() : memref<16x64xbf16, #hivm.address_space<ub>>
  %half = arith.constant 5.000000e-01 : f32
  // A5:      extern "C" __global__ __vector__ void vector(float s)
  // C220:    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  // C220:    set_mask_count();
  // A5:      vf_add_f32(b, a, a, 1024);
  // C220:    set_vector_mask(0, 1024);
  // C220-NEXT: vadd(b, a, a, 1, 1, 1, 1, 8, 8, 8);
  hivm.hir.vadd ins(%a, %a : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%b : memref<16x64xf32, #hivm.address_space<ub>>)
  // A5:      vf_mul_scalar_f32(b, b, 0.5f, 1024);
  // C220:    vmuls(b, b, 0.5f, 1, 1, 1, 8, 8);
  hivm.hir.vmul ins(%b, %half : memref<16x64xf32, #hivm.address_space<ub>>, f32) outs(%b : memref<16x64xf32, #hivm.address_space<ub>>)
  // A5:      vf_max_scalar_f32(b, b, s, 1024);
  hivm.hir.vmax ins(%b, %s : memref<16x64xf32, #hivm.address_space<ub>>, f32) outs(%b : memref<16x64xf32, #hivm.address_space<ub>>)
  // A5:      vf_exp_f32(a, b, 1024);
  // C220:    vexp(a, b, 1, 1, 1, 8, 8);
  hivm.hir.vexp ins(%b : memref<16x64xf32, #hivm.address_space<ub>>) outs(%a : memref<16x64xf32, #hivm.address_space<ub>>)
  // A5:      vf_duplicate_f32(a, 0.5f, 1024);
  // C220:    vector_dup(a, 0.5f, 1, 1, 1, 8, 8);
  hivm.hir.vbrc ins(%half : f32) outs(%a : memref<16x64xf32, #hivm.address_space<ub>>)
  // (reductions and broadcasts in detail: reduce-broadcast.mlir)
  // A5:      vf_row_reduce_sum_f32(r, b, 16, 64, 64, 1);
  // C220:    vcadd(r, b, 16, 1, 1, 8, 0);
  hivm.hir.vreduce <sum> ins(%b : memref<16x64xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
  // A5:      vf_row_broadcast_f32(a, r, 16, 64, 64, 1);
  // C220:    for (int32_t b = 0; b < 8; ++b) {
  // C220-NEXT: vbrcb((__ubuf__ uint32_t *)(a + b * 8), (__ubuf__ uint32_t *)r, 8, 64, 2);
  hivm.hir.vbrc ins(%r : memref<16x1xf32, #hivm.address_space<ub>>) outs(%a : memref<16x64xf32, #hivm.address_space<ub>>) broadcast_dims = [1]
  // A5:      asc_float2bfloat16(h, a, 1024);
  // C220:    vconv_f322bf16r(h, a, 1, 1, 1, 8, 8);
  hivm.hir.vcast ins(%a : memref<16x64xf32, #hivm.address_space<ub>>) outs(%h : memref<16x64xbf16, #hivm.address_space<ub>>)
  // half-width column views are strided: a loop over the 16 rows, 32 elements each
  %al = memref.subview %a[0, 0] [16, 32] [1, 1] : memref<16x64xf32, #hivm.address_space<ub>> to memref<16x32xf32, strided<[64, 1]>, #hivm.address_space<ub>>
  %br = memref.subview %b[0, 32] [16, 32] [1, 1] : memref<16x64xf32, #hivm.address_space<ub>> to memref<16x32xf32, strided<[64, 1], offset: 32>, #hivm.address_space<ub>>
  // A5:      __ubuf__ float *br = b + 32;
  // A5:      for (int32_t r = 0; r < 16; ++r) {
  // A5-NEXT:   vf_relu_f32(br + r * 64, al + r * 64, 32);
  // A5-NEXT: }
  // C220:    for (int32_t r = 0; r < 16; ++r) {
  // C220-NEXT:   set_vector_mask(0, 32);
  // C220-NEXT:   vrelu(br + r * 64, al + r * 64, 1, 1, 1, 8, 8);
  hivm.hir.vrelu ins(%al : memref<16x32xf32, strided<[64, 1]>, #hivm.address_space<ub>>) outs(%br : memref<16x32xf32, strided<[64, 1], offset: 32>, #hivm.address_space<ub>>)
  // A5:      vf_copy_f32(a, b, 1024);
  // C220:    vcopy(a, b, 1, 1, 1, 8, 8);
  hivm.hir.copy ins(%b : memref<16x64xf32, #hivm.address_space<ub>>) outs(%a : memref<16x64xf32, #hivm.address_space<ub>>)
  return
}
