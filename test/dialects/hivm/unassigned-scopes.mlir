// IR from before bishengir's infer-hivm-mem-scope: memrefs without a memory space are
// "not assigned yet" and verify (every scope that is written must still be legal).
// RUN: ascend-opt %s | filecheck %s
// RUN: ascend-opt %s --print-op-generic | ascend-opt | filecheck %s

// CHECK-LABEL: func.func @before_scope_inference
func.func @before_scope_inference(%g: memref<16x64xf16>, %i: i1) {
  %u = memref.alloc() : memref<16x64xf16>
  %a = memref.alloc() : memref<64x64xf16>
  %c = memref.alloc() : memref<16x64xf32>
  %m = arith.constant 16 : index
  %n = arith.constant 64 : index
  // CHECK: hivm.hir.load ins(%g : memref<16x64xf16>) outs(%u : memref<16x64xf16>)
  hivm.hir.load ins(%g : memref<16x64xf16>) outs(%u : memref<16x64xf16>)
  // CHECK-NEXT: hivm.hir.vexp ins(%u : memref<16x64xf16>) outs(%u : memref<16x64xf16>)
  hivm.hir.vexp ins(%u : memref<16x64xf16>) outs(%u : memref<16x64xf16>)
  // CHECK-NEXT: hivm.hir.mmadL1 ins(%u, %a, %i, %m, %n, %n : memref<16x64xf16>, memref<64x64xf16>, i1, index, index, index) outs(%c : memref<16x64xf32>)
  hivm.hir.mmadL1 ins(%u, %a, %i, %m, %n, %n : memref<16x64xf16>, memref<64x64xf16>, i1, index, index, index) outs(%c : memref<16x64xf32>)
  // CHECK-NEXT: hivm.hir.store ins(%u : memref<16x64xf16>) outs(%g : memref<16x64xf16>)
  hivm.hir.store ins(%u : memref<16x64xf16>) outs(%g : memref<16x64xf16>)
  return
}

// CHECK-LABEL: func.func @reduce_with_index
func.func @reduce_with_index(%x: memref<16x64xf32, #hivm.address_space<ub>>, %v: memref<16x1xf32, #hivm.address_space<ub>>, %idx: memref<16x1xi32, #hivm.address_space<ub>>) {
  // CHECK: hivm.hir.vreduce <max_with_index_left> ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%v, %idx : memref<16x1xf32, #hivm.address_space<ub>>, memref<16x1xi32, #hivm.address_space<ub>>) reduce_dims = [1]
  hivm.hir.vreduce <max_with_index_left> ins(%x : memref<16x64xf32, #hivm.address_space<ub>>) outs(%v, %idx : memref<16x1xf32, #hivm.address_space<ub>>, memref<16x1xi32, #hivm.address_space<ub>>) reduce_dims = [1]
  return
}
