// Vector ops as direct vector calls: one call per contiguous run, a loop over rows for
// strided views; dav-c220 in counter mode (set_vector_mask(0, count) before each call).
// RUN: ascend-opt %s -t 'cce{arch=dav-3510}' | filecheck %s --check-prefix=A5
// RUN: ascend-opt %s -t 'cce{arch=dav-c220}' | filecheck %s --check-prefix=C220

func.func @vector(%s: f32) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
  %a = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
  %b = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
  %r = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
  %h = memref.alloc() : memref<16x64xbf16, #hivm.address_space<ub>>
  %half = arith.constant 5.000000e-01 : f32
  // A5:      extern "C" __global__ __vector__ void vector(float s)
  // C220:    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  // C220:    set_mask_count();
  // A5:      asc_add(b, a, a, 1024);
  // C220:    set_vector_mask(0, 1024);
  // C220-NEXT: vadd(b, a, a, 1, 1, 1, 1, 8, 8, 8);
  hivm.hir.vadd ins(%a, %a : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%b : memref<16x64xf32, #hivm.address_space<ub>>)
  // A5:      asc_mul_scalar(b, b, 0.5f, 1024);
  // C220:    vmuls(b, b, 0.5f, 1, 1, 1, 8, 8);
  hivm.hir.vmul ins(%b, %half : memref<16x64xf32, #hivm.address_space<ub>>, f32) outs(%b : memref<16x64xf32, #hivm.address_space<ub>>)
  // A5:      asc_max_scalar(b, b, s, 1024);
  hivm.hir.vmax ins(%b, %s : memref<16x64xf32, #hivm.address_space<ub>>, f32) outs(%b : memref<16x64xf32, #hivm.address_space<ub>>)
  // A5:      asc_exp(a, b, 1024);
  // C220:    vexp(a, b, 1, 1, 1, 8, 8);
  hivm.hir.vexp ins(%b : memref<16x64xf32, #hivm.address_space<ub>>) outs(%a : memref<16x64xf32, #hivm.address_space<ub>>)
  // A5:      asc_duplicate(a, 0.5f, 1024);
  // C220:    vector_dup(a, 0.5f, 1, 1, 1, 8, 8);
  hivm.hir.vbrc ins(%half : f32) outs(%a : memref<16x64xf32, #hivm.address_space<ub>>)
  // (reductions and broadcasts in detail: reduce-broadcast.mlir)
  // A5:      vf_row_reduce_sum_f32(r, b, 16, 64, 64, 1);
  // C220:    vcadd(r, b, 16, 1, 1, 8, 0);
  hivm.hir.vreduce <sum> ins(%b : memref<16x64xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
  // A5:      vf_row_broadcast_f32(a, r, 16, 64, 64, 1);
  // C220:    vbrcb((__ubuf__ uint32_t *)a, (__ubuf__ uint32_t *)r, 8, 64, 2);
  hivm.hir.vbrc ins(%r : memref<16x1xf32, #hivm.address_space<ub>>) outs(%a : memref<16x64xf32, #hivm.address_space<ub>>) broadcast_dims = [1]
  // A5:      asc_float2bfloat16(h, a, 1024);
  // C220:    vconv_f322bf16r(h, a, 1, 1, 1, 8, 8);
  hivm.hir.vcast ins(%a : memref<16x64xf32, #hivm.address_space<ub>>) outs(%h : memref<16x64xbf16, #hivm.address_space<ub>>)
  // half-width column views are strided: a loop over the 16 rows, 32 elements each
  %al = memref.subview %a[0, 0] [16, 32] [1, 1] : memref<16x64xf32, #hivm.address_space<ub>> to memref<16x32xf32, strided<[64, 1]>, #hivm.address_space<ub>>
  %br = memref.subview %b[0, 32] [16, 32] [1, 1] : memref<16x64xf32, #hivm.address_space<ub>> to memref<16x32xf32, strided<[64, 1], offset: 32>, #hivm.address_space<ub>>
  // A5:      __ubuf__ float *br = b + 32;
  // A5:      for (int32_t r = 0; r < 16; ++r) {
  // A5-NEXT:   asc_relu(br + r * 64, al + r * 64, 32);
  // A5-NEXT: }
  // C220:    for (int32_t r = 0; r < 16; ++r) {
  // C220-NEXT:   set_vector_mask(0, 32);
  // C220-NEXT:   vrelu(br + r * 64, al + r * 64, 1, 1, 1, 8, 8);
  hivm.hir.vrelu ins(%al : memref<16x32xf32, strided<[64, 1]>, #hivm.address_space<ub>>) outs(%br : memref<16x32xf32, strided<[64, 1], offset: 32>, #hivm.address_space<ub>>)
  // A5:      asc_copy(a, b, 1024);
  // C220:    vcopy(a, b, 1, 1, 1, 8, 8);
  hivm.hir.copy ins(%b : memref<16x64xf32, #hivm.address_space<ub>>) outs(%a : memref<16x64xf32, #hivm.address_space<ub>>)
  return
}
