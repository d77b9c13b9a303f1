// Vector ops on rows that are not whole 32-byte blocks: a 3 x 7 f32 softmax (28-byte rows).
// dav-3510 calls the `_unaligned` forms of its `__simd_vf__` helpers where an operand (or
// one of its rows) may start off a 32-byte boundary: unaligned loads
// (asc_loadunalign_pre + asc_loadunalign) and stores (asc_storeunalign, the last partial
// block posted); whole-tile ops on the dense 84-byte buffers start aligned and keep the
// aligned forms. dav-c220's intrinsics address UB in 32-byte blocks only: the op is
// refused at its line, never printed wrong. test_cce_tails.py runs the 950 kernel.
// RUN: ascend-opt %s -p 'ascend-compile{target=cce}' -t 'cce{arch=dav-3510}' | filecheck %s --check-prefix=A5
// RUN: not ascend-opt %s -p 'ascend-compile{target=cce chip=ascend910b}' -t 'cce{arch=dav-c220}' 2>&1 | filecheck %s --check-prefix=C220

// A5:       __simd_vf__ inline void vf_row_reduce_max_f32_unaligned(
// A5:         vector_load_unalign in;
// A5:           asc_loadunalign_pre(in, src + r * src_stride);
// A5-NEXT:      asc_loadunalign(x, in, src + r * src_stride);
// A5-NEXT:      asc_reduce_max(acc, x, mask);
// A5:       __simd_vf__ inline void vf_row_broadcast_f32_unaligned(
// A5:         vector_store_unalign out;
// A5:             asc_duplicate(y, x, mask);
// A5-NEXT:        asc_storeunalign(dst + r * dst_stride + c, out, y, cols - c < 64 ? cols - c : 64);
// A5-NEXT:      }
// A5-NEXT:      asc_storeunalign_post(dst + r * dst_stride, out, cols);
// A5:       __simd_vf__ inline void vf_sub_f32(
// A5:           asc_loadalign(x, src0 + i);
// A5:       extern "C" __global__ __vector__ void softmax_3x7(
// A5:       vf_row_reduce_max_f32_unaligned({{.*}}, 3, 7, 7, 1);  // {{.*}}odd-rows.mlir:36
// A5:       vf_sub_f32({{.*}}, 21);  // {{.*}}odd-rows.mlir:38

// C220: odd-rows.mlir:36:3: error: 'hivm.hir.vreduce' op dav-c220 whole-reduce needs f32/f16 rows 32-byte aligned
func.func @softmax_3x7(%x: memref<3x7xf32, #hivm.address_space<gm>>, %y: memref<3x7xf32, #hivm.address_space<gm>>)
    attributes {tile.kernel, tile.grid = 1 : i64} {
  %ux = memref.alloc() : memref<3x7xf32, #hivm.address_space<ub>>
  %m = memref.alloc() : memref<3x1xf32, #hivm.address_space<ub>>
  %wide = memref.alloc() : memref<3x7xf32, #hivm.address_space<ub>>
  %ue = memref.alloc() : memref<3x7xf32, #hivm.address_space<ub>>
  tile.copy ins(%x : memref<3x7xf32, #hivm.address_space<gm>>) outs(%ux : memref<3x7xf32, #hivm.address_space<ub>>)
  tile.reduce <max> ins(%ux : memref<3x7xf32, #hivm.address_space<ub>>) outs(%m : memref<3x1xf32, #hivm.address_space<ub>>) dims = [1]
  tile.broadcast ins(%m : memref<3x1xf32, #hivm.address_space<ub>>) outs(%wide : memref<3x7xf32, #hivm.address_space<ub>>) dims = [1]
  tile.sub ins(%ux, %wide : memref<3x7xf32, #hivm.address_space<ub>>, memref<3x7xf32, #hivm.address_space<ub>>) outs(%ue : memref<3x7xf32, #hivm.address_space<ub>>)
  tile.exp ins(%ue : memref<3x7xf32, #hivm.address_space<ub>>) outs(%ue : memref<3x7xf32, #hivm.address_space<ub>>)
  tile.reduce <sum> ins(%ue : memref<3x7xf32, #hivm.address_space<ub>>) outs(%m : memref<3x1xf32, #hivm.address_space<ub>>) dims = [1]
  tile.broadcast ins(%m : memref<3x1xf32, #hivm.address_space<ub>>) outs(%wide : memref<3x7xf32, #hivm.address_space<ub>>) dims = [1]
  tile.div ins(%ue, %wide : memref<3x7xf32, #hivm.address_space<ub>>, memref<3x7xf32, #hivm.address_space<ub>>) outs(%ue : memref<3x7xf32, #hivm.address_space<ub>>)
  tile.copy ins(%ue : memref<3x7xf32, #hivm.address_space<ub>>) outs(%y : memref<3x7xf32, #hivm.address_space<gm>>)
  return
}
