// tile.copy picks the DMA op of its scope pair.
// RUN: ascend-opt %s -p convert-tile-to-hivm --split-input-file | filecheck %s

// CHECK-LABEL: func.func @gm_ub_gm
func.func @gm_ub_gm(%g: memref<64xf16, #hivm.address_space<gm>>, %h: memref<64xf16, #hivm.address_space<gm>>) {
  %u = memref.alloc() : memref<64xf16, #hivm.address_space<ub>>
  // CHECK: hivm.hir.load ins(%{{.*}} : memref<64xf16, #hivm.address_space<gm>>) outs(%{{.*}} : memref<64xf16, #hivm.address_space<ub>>)
  tile.copy ins(%g : memref<64xf16, #hivm.address_space<gm>>) outs(%u : memref<64xf16, #hivm.address_space<ub>>)
  // CHECK-NEXT: hivm.hir.store ins(%{{.*}} : memref<64xf16, #hivm.address_space<ub>>) outs(%{{.*}} : memref<64xf16, #hivm.address_space<gm>>)
  tile.copy ins(%u : memref<64xf16, #hivm.address_space<ub>>) outs(%h : memref<64xf16, #hivm.address_space<gm>>)
  // CHECK-NOT: tile.
  return
}

// -----

// CHECK-LABEL: func.func @gm_cbuf
func.func @gm_cbuf(%g: memref<32x64xbf16, #hivm.address_space<gm>>) {
  %l1 = memref.alloc() : memref<32x64xbf16, #hivm.address_space<cbuf>>
  // CHECK: hivm.hir.nd2nz {dst_continuous} ins(%{{.*}} : memref<32x64xbf16, #hivm.address_space<gm>>) outs(%{{.*}} : memref<32x64xbf16, #hivm.address_space<cbuf>>)
  tile.copy ins(%g : memref<32x64xbf16, #hivm.address_space<gm>>) outs(%l1 : memref<32x64xbf16, #hivm.address_space<cbuf>>)
  return
}

// -----

// Everything out of L0C goes through the fixpipe, converting NZ back to ND.
// CHECK-LABEL: func.func @from_cc
func.func @from_cc(%g: memref<32x16xf32, #hivm.address_space<gm>>) {
  %acc = memref.alloc() : memref<32x16xf32, #hivm.address_space<cc>>
  %l1 = memref.alloc() : memref<32x16xf32, #hivm.address_space<cbuf>>
  %u = memref.alloc() : memref<32x16xf32, #hivm.address_space<ub>>
  %half = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
  // CHECK: hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%{{.*}} : memref<32x16xf32, #hivm.address_space<cc>>) outs(%{{.*}} : memref<32x16xf32, #hivm.address_space<gm>>){{$}}
  tile.copy ins(%acc : memref<32x16xf32, #hivm.address_space<cc>>) outs(%g : memref<32x16xf32, #hivm.address_space<gm>>)
  // CHECK: hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%{{.*}} : memref<32x16xf32, #hivm.address_space<cc>>) outs(%{{.*}} : memref<32x16xf32, #hivm.address_space<cbuf>>){{$}}
  tile.copy ins(%acc : memref<32x16xf32, #hivm.address_space<cc>>) outs(%l1 : memref<32x16xf32, #hivm.address_space<cbuf>>)
  // CHECK: hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%{{.*}} : memref<32x16xf32, #hivm.address_space<cc>>) outs(%{{.*}} : memref<32x16xf32, #hivm.address_space<ub>>){{$}}
  tile.copy ins(%acc : memref<32x16xf32, #hivm.address_space<cc>>) outs(%u : memref<32x16xf32, #hivm.address_space<ub>>)
  // The dual copy: half of the rows to each vector core's ub.
  // CHECK: hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%{{.*}} : memref<32x16xf32, #hivm.address_space<cc>>) outs(%{{.*}} : memref<16x16xf32, #hivm.address_space<ub>>) dual_dst_mode = <ROW_SPLIT>
  tile.copy ins(%acc : memref<32x16xf32, #hivm.address_space<cc>>) outs(%half : memref<16x16xf32, #hivm.address_space<ub>>)
  return
}

// -----

// CHECK-LABEL: func.func @on_chip
func.func @on_chip() {
  %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %v = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %l1 = memref.alloc() : memref<64xf32, #hivm.address_space<cbuf>>
  // CHECK: hivm.hir.copy ins(%{{.*}} : memref<64xf32, #hivm.address_space<ub>>) outs(%{{.*}} : memref<64xf32, #hivm.address_space<ub>>)
  tile.copy ins(%u : memref<64xf32, #hivm.address_space<ub>>) outs(%v : memref<64xf32, #hivm.address_space<ub>>)
  // CHECK: hivm.hir.copy ins(%{{.*}} : memref<64xf32, #hivm.address_space<ub>>) outs(%{{.*}} : memref<64xf32, #hivm.address_space<cbuf>>)
  tile.copy ins(%u : memref<64xf32, #hivm.address_space<ub>>) outs(%l1 : memref<64xf32, #hivm.address_space<cbuf>>)
  return
}

// -----

// Strided views keep their layout through the conversion.
// CHECK-LABEL: func.func @subview
func.func @subview(%g: memref<8x64xf32, #hivm.address_space<gm>>, %i: index) {
  %u = memref.alloc() : memref<1x64xf32, #hivm.address_space<ub>>
  %s = memref.subview %g[%i, 0] [1, 64] [1, 1] : memref<8x64xf32, #hivm.address_space<gm>> to memref<1x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>
  // CHECK: hivm.hir.load ins(%{{.*}} : memref<1x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>) outs(%{{.*}} : memref<1x64xf32, #hivm.address_space<ub>>)
  tile.copy ins(%s : memref<1x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>) outs(%u : memref<1x64xf32, #hivm.address_space<ub>>)
  return
}
