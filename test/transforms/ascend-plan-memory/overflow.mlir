// RUN: not ascend-opt %s -p ascend-plan-memory 2>&1 | filecheck %s
// RUN: not ascend-opt %s -p 'ascend-plan-memory{chip=ascend910b}' 2>&1 | filecheck %s --check-prefix=B910

// In one loop, a 128 KiB and a 64 KiB f32 accumulator fit L0C (256 KiB on ascend950) once each, so
// the early whole-function check lets them through, but a second version of the other 64 KiB one
// does not: a located error naming every buffer, its bytes and versions, and a hint.
// CHECK: overflow.mlir:[[# @LINE + 5]]:3: error: 'memref.alloc' op cc overflow: the buffers need 327680 bytes, capacity 262144: %acc 131072 B x 1 version, %acc2 65536 B x 2 versions, %acc3 65536 B x 1 version; hint: lower tile.num_stages (fewer versions) or use smaller tiles
// B910: error: 'memref.alloc' op cc overflow: the buffers need 327680 bytes, capacity 131072
func.func @k(%a: memref<128x128xbf16, #hivm.address_space<cbuf>>, %b: memref<128x128xbf16, #hivm.address_space<cbuf>>, %g: memref<256x128xf32, #hivm.address_space<gm>>, %g2: memref<128x128xf32, #hivm.address_space<gm>>) {
  %true = arith.constant true
  %c128 = arith.constant 128 : index
  %acc = memref.alloc() : memref<256x128xf32, #hivm.address_space<cc>>
  %acc2 = memref.alloc() {ascend.buffer = #ascend.buffer<versions = 2>} : memref<128x128xf32, #hivm.address_space<cc>>
  %acc3 = memref.alloc() : memref<128x128xf32, #hivm.address_space<cc>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
  hivm.hir.mmadL1 ins(%a, %b, %true, %c128, %c128, %c128 : memref<128x128xbf16, #hivm.address_space<cbuf>>, memref<128x128xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc2 : memref<128x128xf32, #hivm.address_space<cc>>)
  hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<256x128xf32, #hivm.address_space<cc>>) outs(%g : memref<256x128xf32, #hivm.address_space<gm>>)
  hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc3 : memref<128x128xf32, #hivm.address_space<cc>>) outs(%g2 : memref<128x128xf32, #hivm.address_space<gm>>)
  hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<256x128xf32, #hivm.address_space<cc>>) outs(%g : memref<256x128xf32, #hivm.address_space<gm>>)
  }
  return
}
