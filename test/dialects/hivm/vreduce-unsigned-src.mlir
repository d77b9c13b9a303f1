// `unsigned_src` (required by the Ascend 950 build of bishengir, before reduce_dims)
// is an optional property: it round-trips in custom and generic form, and is absent
// when not written.
// RUN: ascend-opt %s | filecheck %s
// RUN: ascend-opt %s --print-op-generic | ascend-opt | filecheck %s
// RUN: ascend-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

func.func @f(%a: memref<16x64xf32, #hivm.address_space<ub>>, %c: memref<16x1xf32, #hivm.address_space<ub>>) {
  hivm.hir.vreduce <sum> ins(%a : memref<16x64xf32, #hivm.address_space<ub>>) outs(%c : memref<16x1xf32, #hivm.address_space<ub>>) unsigned_src = false reduce_dims = [1]
  hivm.hir.vreduce <max> ins(%a : memref<16x64xf32, #hivm.address_space<ub>>) outs(%c : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
  func.return
}
// CHECK: hivm.hir.vreduce <sum> ins(%a : memref<16x64xf32, #hivm.address_space<ub>>) outs(%c : memref<16x1xf32, #hivm.address_space<ub>>) unsigned_src = false reduce_dims = [1]
// CHECK-NEXT: hivm.hir.vreduce <max> ins(%a : memref<16x64xf32, #hivm.address_space<ub>>) outs(%c : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
// GENERIC: reduce_dims = array<i64: 1>, unsigned_src = false}>
// GENERIC: reduce_dims = array<i64: 1>}>
