// straight-line: the K loops that become straight-line code alone are peeled: those of
// one trip (into their one step), and those of two trips (the second step inlined after
// the first, writing L1 tiles of its own); others are left whole.
// ascend-compile runs this before the scheduler, so that a tile loop around such a K
// loop is scheduled as the straight line it becomes.
// RUN: ascend-opt %s -p 'peel-mmad-init{straight-line=true}' | filecheck %s
// Where L1 cannot hold the second step's tile besides the function's buffers (three of
// 512 bytes), the K loop of two trips stays a loop.
// RUN: ascend-opt %s -p 'peel-mmad-init{straight-line=true l1-capacity=1500}' | filecheck %s --check-prefix=SMALL
// SMALL-NOT:  _next = memref.alloc
// SMALL:      scf.for
// SMALL:      scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// SMALL-NEXT:   scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// SMALL-NEXT:     %{{.*}} = arith.cmpi eq, %[[K]], %{{.*}} : index

// CHECK-LABEL: func.func @tiles
// CHECK:      %[[L1:.*]] = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
// The second step's own copy of the tile each step loads whole; the accumulator, read
// and written by both steps, has none, nor has %l1, which the loops after it use.
// CHECK-NEXT: %[[L2:.*]] = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
// CHECK-NEXT: %[[L2N:.*]] = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
// CHECK-NEXT: %[[ACC:.*]] = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
// CHECK-NEXT: scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// The one-trip K loop is its step, init = true, in the tile loop's body.
// CHECK-NEXT:   %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT:   hivm.hir.mmadL1 ins(%[[L1]], %[[L1]], %[[TRUE]],
// CHECK-NEXT:   hivm.hir.fixpipe
// CHECK-NEXT: }
// The two-trip K loop in a tile loop: its two steps, the second on its own tile.
// CHECK:      scf.for %[[T2:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:   %[[TRUE2:.*]] = arith.constant true
// CHECK-NEXT:   %[[FALSE2:.*]] = arith.constant false
// CHECK-NEXT:   hivm.hir.nd2nz {dst_continuous} ins(%{{.*}} : {{.*}}) outs(%[[L2]] : {{.*}})
// CHECK-NEXT:   hivm.hir.mmadL1 ins(%[[L2]], %[[L2]], %[[TRUE2]], {{.*}}) outs(%[[ACC]] : {{.*}})
// CHECK-NEXT:   %{{.*}} = arith.constant 1 : index
// CHECK-NEXT:   hivm.hir.nd2nz {dst_continuous} ins(%{{.*}} : {{.*}}) outs(%[[L2N]] : {{.*}})
// CHECK-NEXT:   hivm.hir.mmadL1 ins(%[[L2N]], %[[L2N]], %[[FALSE2]], {{.*}}) outs(%[[ACC]] : {{.*}})
// CHECK-NEXT:   hivm.hir.fixpipe
// CHECK-NEXT: }
// At the top level a K loop of two trips is its two steps too; %l1, which the loop after
// it reads, has no copy: both steps load it. One of four keeps its computed init: it is
// peeled after the scheduler.
// CHECK:      %[[TRUE3:.*]] = arith.constant true
// CHECK-NEXT: %[[FALSE3:.*]] = arith.constant false
// CHECK-NEXT: hivm.hir.nd2nz {dst_continuous} ins(%{{.*}} : {{.*}}) outs(%[[L1]] : {{.*}})
// CHECK-NEXT: hivm.hir.mmadL1 ins(%[[L1]], %[[L1]], %[[TRUE3]], {{.*}}) outs(%[[ACC]] : {{.*}})
// CHECK-NEXT: %{{.*}} = arith.constant 1 : index
// CHECK-NEXT: hivm.hir.nd2nz {dst_continuous} ins(%{{.*}} : {{.*}}) outs(%[[L1]] : {{.*}})
// CHECK-NEXT: hivm.hir.mmadL1 ins(%[[L1]], %[[L1]], %[[FALSE3]], {{.*}}) outs(%[[ACC]] : {{.*}})
// CHECK-NEXT: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:   %[[FIRST:.*]] = arith.cmpi eq, %[[K]], %{{.*}} : index
// CHECK-NEXT:   hivm.hir.mmadL1 ins(%{{.*}}, %{{.*}}, %[[FIRST]],
func.func @tiles(%o: memref<16x16xf32, #hivm.address_space<gm>>, %g: memref<16x16xf16, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %l1 = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  %l2 = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
  scf.for %t = %c0 to %c4 step %c1 {
    scf.for %k = %c0 to %c1 step %c1 {
      %first = arith.cmpi eq, %k, %c0 : index
      hivm.hir.mmadL1 ins(%l1, %l1, %first, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>)
    }
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%o : memref<16x16xf32, #hivm.address_space<gm>>)
  }
  scf.for %t = %c0 to %c4 step %c1 {
    scf.for %k = %c0 to %c2 step %c1 {
      %first = arith.cmpi eq, %k, %c0 : index
      hivm.hir.nd2nz {dst_continuous} ins(%g : memref<16x16xf16, #hivm.address_space<gm>>) outs(%l2 : memref<16x16xf16, #hivm.address_space<cbuf>>)
      hivm.hir.mmadL1 ins(%l2, %l2, %first, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>)
    }
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%o : memref<16x16xf32, #hivm.address_space<gm>>)
  }
  scf.for %k = %c0 to %c2 step %c1 {
    %first = arith.cmpi eq, %k, %c0 : index
    hivm.hir.nd2nz {dst_continuous} ins(%g : memref<16x16xf16, #hivm.address_space<gm>>) outs(%l1 : memref<16x16xf16, #hivm.address_space<cbuf>>)
    hivm.hir.mmadL1 ins(%l1, %l1, %first, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>)
  }
  scf.for %k = %c0 to %c4 step %c1 {
    %first = arith.cmpi eq, %k, %c0 : index
    hivm.hir.mmadL1 ins(%l1, %l1, %first, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>)
  }
  hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%o : memref<16x16xf32, #hivm.address_space<gm>>)
  func.return
}

// A step that reads a tile (here through a view made before the K loop) before it loads
// it reads what the step before loaded: the tile keeps its one buffer, shared by the two
// steps (and by the next tile's first step).
// CHECK-LABEL: func.func @stale
// CHECK-NOT:   _next
// CHECK:       scf.for
// CHECK-NOT:   scf.for
// CHECK:       func.return
func.func @stale(%o: memref<16x16xf32, #hivm.address_space<gm>>, %g: memref<16x16xf16, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %l3 = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
  scf.for %t = %c0 to %c4 step %c1 {
    %sv = memref.subview %l3[0, 0] [16, 16] [1, 1] : memref<16x16xf16, #hivm.address_space<cbuf>> to memref<16x16xf16, strided<[16, 1]>, #hivm.address_space<cbuf>>
    scf.for %k = %c0 to %c2 step %c1 {
      %first = arith.cmpi eq, %k, %c0 : index
      hivm.hir.mmadL1 ins(%sv, %sv, %first, %c16, %c16, %c16 : memref<16x16xf16, strided<[16, 1]>, #hivm.address_space<cbuf>>, memref<16x16xf16, strided<[16, 1]>, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>)
      hivm.hir.nd2nz {dst_continuous} ins(%g : memref<16x16xf16, #hivm.address_space<gm>>) outs(%l3 : memref<16x16xf16, #hivm.address_space<cbuf>>)
    }
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%o : memref<16x16xf32, #hivm.address_space<gm>>)
  }
  func.return
}

// At the top level of a function, a tile that only the K loop uses gets its copy: the
// second step's load need not wait for the first step's mmadL1 (ascend-plan-memory gives
// the copy bytes of its own where L1 holds every buffer).
// CHECK-LABEL: func.func @top_level
// CHECK:       %[[T4:.*]] = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
// CHECK-NEXT:  %[[T4N:.*]] = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
// CHECK-NOT:   scf.for
// CHECK:       hivm.hir.nd2nz {dst_continuous} ins(%{{.*}} : {{.*}}) outs(%[[T4]] : {{.*}})
// CHECK-NEXT:  hivm.hir.mmadL1 ins(%[[T4]], %[[T4]], %{{.*}}) outs(%{{.*}} : {{.*}})
// CHECK:       hivm.hir.nd2nz {dst_continuous} ins(%{{.*}} : {{.*}}) outs(%[[T4N]] : {{.*}})
// CHECK-NEXT:  hivm.hir.mmadL1 ins(%[[T4N]], %[[T4N]], %{{.*}}) outs(%{{.*}} : {{.*}})
// CHECK-NEXT:  hivm.hir.fixpipe
func.func @top_level(%o: memref<16x16xf32, #hivm.address_space<gm>>, %g: memref<16x16xf16, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %l4 = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
  scf.for %k = %c0 to %c2 step %c1 {
    %first = arith.cmpi eq, %k, %c0 : index
    hivm.hir.nd2nz {dst_continuous} ins(%g : memref<16x16xf16, #hivm.address_space<gm>>) outs(%l4 : memref<16x16xf16, #hivm.address_space<cbuf>>)
    hivm.hir.mmadL1 ins(%l4, %l4, %first, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>)
  }
  hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%o : memref<16x16xf32, #hivm.address_space<gm>>)
  func.return
}
