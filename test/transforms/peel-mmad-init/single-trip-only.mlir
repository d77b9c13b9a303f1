// single-trip-only: the K loops of one trip alone are peeled (into their one step),
// others are left whole. ascend-compile runs this before the scheduler, so that a tile
// loop around a K loop of one trip is scheduled as the straight line it becomes.
// RUN: ascend-opt %s -p 'peel-mmad-init{single-trip-only=true}' | filecheck %s

// CHECK-LABEL: func.func @tiles
// CHECK:      scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// The one-trip K loop is its step, init = true, in the tile loop's body.
// CHECK-NEXT:   %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT:   hivm.hir.mmadL1 ins(%{{.*}}, %{{.*}}, %[[TRUE]],
// CHECK-NEXT:   hivm.hir.fixpipe
// CHECK-NEXT: }
// The K loop of four trips keeps its computed init: peeled after the scheduler.
// CHECK:      scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:   %[[FIRST:.*]] = arith.cmpi eq, %[[K]], %{{.*}} : index
// CHECK-NEXT:   hivm.hir.mmadL1 ins(%{{.*}}, %{{.*}}, %[[FIRST]],
func.func @tiles(%o: memref<16x16xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %l1 = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
  scf.for %t = %c0 to %c4 step %c1 {
    scf.for %k = %c0 to %c1 step %c1 {
      %first = arith.cmpi eq, %k, %c0 : index
      hivm.hir.mmadL1 ins(%l1, %l1, %first, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>)
    }
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%o : memref<16x16xf32, #hivm.address_space<gm>>)
  }
  scf.for %k = %c0 to %c4 step %c1 {
    %first = arith.cmpi eq, %k, %c0 : index
    hivm.hir.mmadL1 ins(%l1, %l1, %first, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>)
  }
  hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%o : memref<16x16xf32, #hivm.address_space<gm>>)
  func.return
}
