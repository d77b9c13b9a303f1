// RUN: ascend-opt %s -p ascend-estimate-latency --split-input-file | filecheck %s

// Copies: latency = base + ceil(bytes/bandwidth), ii per path (ascend950 table).
// CHECK-LABEL: func.func @copies
func.func @copies(%g: memref<16x16xf16, #hivm.address_space<gm>>, %o: memref<64x128xf32, #hivm.address_space<gm>>) {
  %l1 = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  %ub = memref.alloc() : memref<64x128xf32, #hivm.address_space<ub>>
  %acc = memref.alloc() : memref<128x128xf32, #hivm.address_space<cc>>
  %ub2 = memref.alloc() : memref<128x128xf32, #hivm.address_space<ub>>
  // 512 B GM -> L1: (190 + 6, max(6, 64))
  // CHECK: hivm.hir.nd2nz {ascend.task = #ascend.task<latency = 196, ii = 64>}
  hivm.hir.nd2nz ins(%g : memref<16x16xf16, #hivm.address_space<gm>>) outs(%l1 : memref<16x16xf16, #hivm.address_space<cbuf>>)
  // 32 KiB UB -> GM: (180 + 285, 285)
  // CHECK: hivm.hir.store ins(%{{.*}}) outs(%{{.*}}) {ascend.task = #ascend.task<latency = 465, ii = 285>}
  hivm.hir.store ins(%ub : memref<64x128xf32, #hivm.address_space<ub>>) outs(%o : memref<64x128xf32, #hivm.address_space<gm>>)
  // 64 KiB L0C -> UB (anchor value): (570, 514)
  // CHECK: hivm.hir.fixpipe {ascend.task = #ascend.task<latency = 570, ii = 514>
  hivm.hir.fixpipe ins(%acc : memref<128x128xf32, #hivm.address_space<cc>>) outs(%ub2 : memref<128x128xf32, #hivm.address_space<ub>>)
  return
}

// -----

// A strided GM slice (rows of 512 B inside rows of 16 KiB) costs one descriptor per row on
// GM <-> UB paths: 64 x (90 + 6, 13) in sequence = (13*63 + 96, 13*64).
// CHECK-LABEL: func.func @strided
func.func @strided(%g: memref<256x4096xf32, #hivm.address_space<gm>>, %i: index) {
  %ub = memref.alloc() : memref<64x128xf32, #hivm.address_space<ub>>
  %s = memref.subview %g[%i, 0] [64, 128] [1, 1] : memref<256x4096xf32, #hivm.address_space<gm>> to memref<64x128xf32, strided<[4096, 1], offset: ?>, #hivm.address_space<gm>>
  // CHECK: hivm.hir.load {{.*}} {ascend.task = #ascend.task<latency = 915, ii = 832>}
  hivm.hir.load ins(%s : memref<64x128xf32, strided<[4096, 1], offset: ?>, #hivm.address_space<gm>>) outs(%ub : memref<64x128xf32, #hivm.address_space<ub>>)
  // whole rows are contiguous: one descriptor (90 + 328, 328)
  %r = memref.subview %g[%i, 0] [8, 4096] [1, 1] : memref<256x4096xf32, #hivm.address_space<gm>> to memref<8x4096xf32, strided<[4096, 1], offset: ?>, #hivm.address_space<gm>>
  %ub8 = memref.alloc() : memref<8x4096xf32, #hivm.address_space<ub>>
  // CHECK: hivm.hir.load {{.*}} {ascend.task = #ascend.task<latency = 1401, ii = 1311>}
  hivm.hir.load ins(%r : memref<8x4096xf32, strided<[4096, 1], offset: ?>, #hivm.address_space<gm>>) outs(%ub8 : memref<8x4096xf32, #hivm.address_space<ub>>)
  return
}

// -----

// mmadL1 = MTE1 moves (L1 -> L0A, L1 -> L0B) then the cube; ii = max over the two pipes.
// CHECK-LABEL: func.func @matmuls
func.func @matmuls(%a: memref<256x128xbf16, #hivm.address_space<cbuf>>, %b: memref<128x224xbf16, #hivm.address_space<cbuf>>,
                   %c: memref<256x224xf32, #hivm.address_space<cc>>,
                   %a32: memref<64x24xf32, #hivm.address_space<cbuf>>, %b32: memref<24x64xf32, #hivm.address_space<cbuf>>,
                   %c32: memref<64x64xf32, #hivm.address_space<cc>>, %bt: memref<224x128xbf16, #hivm.address_space<cbuf>>) {
  %true = arith.constant true
  %c256 = arith.constant 256 : index
  %c128 = arith.constant 128 : index
  %c224 = arith.constant 224 : index
  %c64 = arith.constant 64 : index
  %c24 = arith.constant 24 : index
  // cube 2*256*224*128/8192 = 1792 (+8); MTE1 (261, 259) then (229, 227)
  // CHECK: hivm.hir.mmadL1 {ascend.task = #ascend.task<latency = 2286, ii = 1792>}
  hivm.hir.mmadL1 ins(%a, %b, %true, %c256, %c128, %c224 : memref<256x128xbf16, #hivm.address_space<cbuf>>, memref<128x224xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<256x224xf32, #hivm.address_space<cc>>)
  // the same product with B stored transposed
  // CHECK: hivm.hir.mmadL1 {b_transpose, ascend.task = #ascend.task<latency = 2286, ii = 1792>}
  hivm.hir.mmadL1 {b_transpose} ins(%a, %bt, %true, %c256, %c128, %c224 : memref<256x128xbf16, #hivm.address_space<cbuf>>, memref<224x128xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<256x224xf32, #hivm.address_space<cc>>)
  // HF32 64x64x24: cube (67 + 48, 48) after MTE1 moves (29, 27) and (29, 27): MTE1 is the
  // busier pipe of this task
  // CHECK: hivm.hir.mmadL1 {enable_HF32, ascend.task = #ascend.task<latency = 169, ii = 54>}
  hivm.hir.mmadL1 {enable_HF32} ins(%a32, %b32, %true, %c64, %c24, %c64 : memref<64x24xf32, #hivm.address_space<cbuf>>, memref<24x64xf32, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c32 : memref<64x64xf32, #hivm.address_space<cc>>)
  // plain fp32 is 8x slower on the cube: 2*64*64*24/512 = 384, latency 54 + 67 + 384
  // CHECK: hivm.hir.mmadL1 {ascend.task = #ascend.task<latency = 505, ii = 384>}
  hivm.hir.mmadL1 ins(%a32, %b32, %true, %c64, %c24, %c64 : memref<64x24xf32, #hivm.address_space<cbuf>>, memref<24x64xf32, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c32 : memref<64x64xf32, #hivm.address_space<cc>>)
  return
}

// -----

// Vector ops: max(elements / class throughput, bytes read / 256).
// CHECK-LABEL: func.func @vector
func.func @vector(%x: memref<4096xf16, #hivm.address_space<ub>>, %y: memref<4096xf16, #hivm.address_space<ub>>,
                  %z: memref<4096xf16, #hivm.address_space<ub>>, %w: memref<4096xf32, #hivm.address_space<ub>>) {
  %cst = arith.constant 2.0 : f16
  // two fp16 inputs: 16 KiB / 256 = 64 < 4096 / 51 = 81
  // CHECK: hivm.hir.vadd {ascend.task = #ascend.task<latency = 81, ii = 81>}
  hivm.hir.vadd ins(%x, %y : memref<4096xf16, #hivm.address_space<ub>>, memref<4096xf16, #hivm.address_space<ub>>) outs(%z : memref<4096xf16, #hivm.address_space<ub>>)
  // CHECK: hivm.hir.vmul {ascend.task = #ascend.task<latency = 81, ii = 81>}
  hivm.hir.vmul ins(%x, %cst : memref<4096xf16, #hivm.address_space<ub>>, f16) outs(%z : memref<4096xf16, #hivm.address_space<ub>>)
  // special function: 4096 / 8
  // CHECK: hivm.hir.vexp {ascend.task = #ascend.task<latency = 512, ii = 512>}
  hivm.hir.vexp ins(%x : memref<4096xf16, #hivm.address_space<ub>>) outs(%z : memref<4096xf16, #hivm.address_space<ub>>)
  // CHECK: hivm.hir.vdiv {ascend.task = #ascend.task<latency = 316, ii = 316>}
  hivm.hir.vdiv ins(%x, %y : memref<4096xf16, #hivm.address_space<ub>>, memref<4096xf16, #hivm.address_space<ub>>) outs(%z : memref<4096xf16, #hivm.address_space<ub>>)
  // CHECK: hivm.hir.vcast {ascend.task = #ascend.task<latency = 81, ii = 81>}
  hivm.hir.vcast ins(%x : memref<4096xf16, #hivm.address_space<ub>>) outs(%w : memref<4096xf32, #hivm.address_space<ub>>)
  return
}
