// RUN: ascend-opt %s -p ascend-plan-memory | filecheck %s

// The cube's scopes hold fractals: a 17 x 32 bf16 L1 tile fills 32 rows x 64 bytes of NZ
// (2048 bytes, not 1088), a 17 x 17 f32 L0C tile 32 x 32 x 4 bytes (4096, not 1156). The
// next buffer starts past the padding, or nd2nz's padded rows would overwrite it.
// CHECK:      %c0_i64 = arith.constant 0 : i64
// CHECK-NEXT: %la = hivm.hir.pointer_cast(%c0_i64) : memref<17x32xbf16, #hivm.address_space<cbuf>>
// CHECK:      %c2048_i64 = arith.constant 2048 : i64
// CHECK-NEXT: %lb = hivm.hir.pointer_cast(%c2048_i64) : memref<32x17xbf16, #hivm.address_space<cbuf>>
// CHECK:      %acc = hivm.hir.pointer_cast(%{{.*}}) : memref<17x17xf32, #hivm.address_space<cc>>
// CHECK:      %c4096_i64 = arith.constant 4096 : i64
// CHECK-NEXT: %acc2 = hivm.hir.pointer_cast(%c4096_i64) : memref<17x17xf32, #hivm.address_space<cc>>
func.func @tails(%a: memref<17x32xbf16, #hivm.address_space<gm>>, %b: memref<32x17xbf16, #hivm.address_space<gm>>,
                 %c: memref<17x17xf32, #hivm.address_space<gm>>, %init: i1) {
  %c17 = arith.constant 17 : index
  %c32 = arith.constant 32 : index
  %la = memref.alloc() : memref<17x32xbf16, #hivm.address_space<cbuf>>
  %lb = memref.alloc() : memref<32x17xbf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<17x17xf32, #hivm.address_space<cc>>
  %acc2 = memref.alloc() : memref<17x17xf32, #hivm.address_space<cc>>
  hivm.hir.nd2nz ins(%a : memref<17x32xbf16, #hivm.address_space<gm>>) outs(%la : memref<17x32xbf16, #hivm.address_space<cbuf>>)
  hivm.hir.nd2nz ins(%b : memref<32x17xbf16, #hivm.address_space<gm>>) outs(%lb : memref<32x17xbf16, #hivm.address_space<cbuf>>)
  hivm.hir.mmadL1 ins(%la, %lb, %init, %c17, %c32, %c17 : memref<17x32xbf16, #hivm.address_space<cbuf>>, memref<32x17xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<17x17xf32, #hivm.address_space<cc>>)
  hivm.hir.mmadL1 ins(%la, %lb, %init, %c17, %c32, %c17 : memref<17x32xbf16, #hivm.address_space<cbuf>>, memref<32x17xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc2 : memref<17x17xf32, #hivm.address_space<cc>>)
  hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<17x17xf32, #hivm.address_space<cc>>) outs(%c : memref<17x17xf32, #hivm.address_space<gm>>)
  hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc2 : memref<17x17xf32, #hivm.address_space<cc>>) outs(%c : memref<17x17xf32, #hivm.address_space<gm>>)
  return
}
