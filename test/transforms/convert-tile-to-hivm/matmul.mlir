// tile.matmul -> hivm.hir.mmadL1 with the real M, K, N as index constants.
// RUN: ascend-opt %s -p convert-tile-to-hivm --split-input-file | filecheck %s

// CHECK-LABEL: func.func @matmul
func.func @matmul(%first: i1) {
  %a = memref.alloc() : memref<64x32xbf16, #hivm.address_space<cbuf>>
  %b = memref.alloc() : memref<32x16xbf16, #hivm.address_space<cbuf>>
  %c = memref.alloc() : memref<64x16xf32, #hivm.address_space<cc>>
  // CHECK:      %[[M:.*]] = arith.constant 64 : index
  // CHECK-NEXT: %[[K:.*]] = arith.constant 32 : index
  // CHECK-NEXT: %[[N:.*]] = arith.constant 16 : index
  // CHECK-NEXT: hivm.hir.mmadL1 ins(%{{.*}}, %{{.*}}, %{{.*}}, %[[M]], %[[K]], %[[N]] : memref<64x32xbf16, #hivm.address_space<cbuf>>, memref<32x16xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%{{.*}} : memref<64x16xf32, #hivm.address_space<cc>>)
  tile.matmul ins(%a, %b : memref<64x32xbf16, #hivm.address_space<cbuf>>, memref<32x16xbf16, #hivm.address_space<cbuf>>) outs(%c : memref<64x16xf32, #hivm.address_space<cc>>) init(%first : i1)
  return
}

// -----

// B stored N x K: N comes from its first dim.
// CHECK-LABEL: func.func @matmul_transpose_b
func.func @matmul_transpose_b(%first: i1) {
  %a = memref.alloc() : memref<64x32xf16, #hivm.address_space<cbuf>>
  %b = memref.alloc() : memref<16x32xf16, #hivm.address_space<cbuf>>
  %c = memref.alloc() : memref<64x16xf32, #hivm.address_space<cc>>
  // CHECK:      %[[M:.*]] = arith.constant 64 : index
  // CHECK-NEXT: %[[K:.*]] = arith.constant 32 : index
  // CHECK-NEXT: %[[N:.*]] = arith.constant 16 : index
  // CHECK-NEXT: hivm.hir.mmadL1 {b_transpose} ins(%{{.*}}, %{{.*}}, %{{.*}}, %[[M]], %[[K]], %[[N]] : memref<64x32xf16, #hivm.address_space<cbuf>>, memref<16x32xf16, #hivm.address_space<cbuf>>, i1, index, index, index)
  tile.matmul {transpose_b} ins(%a, %b : memref<64x32xf16, #hivm.address_space<cbuf>>, memref<16x32xf16, #hivm.address_space<cbuf>>) outs(%c : memref<64x16xf32, #hivm.address_space<cc>>) init(%first : i1)
  return
}

// -----

// The init condition is passed through (the npuir printer peels a computed one).
// CHECK-LABEL: func.func @k_loop
func.func @k_loop() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  %b = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  %c = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
  // CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
  scf.for %k = %c0 to %c4 step %c1 {
    // CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[K]], %{{.*}} : index
    %first = arith.cmpi eq, %k, %c0 : index
    // CHECK: hivm.hir.mmadL1 ins(%{{.*}}, %{{.*}}, %[[FIRST]],
    tile.matmul ins(%a, %b : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>) outs(%c : memref<16x16xf32, #hivm.address_space<cc>>) init(%first : i1)
  // CHECK: } {ascend.num_stages = 3 : i64}
  } {tile.num_stages = 3 : i64}
  return
}
