// RUN: ascend-opt %s --split-input-file -p "ascend-insert-barrier-sync{chip=ascend910b}" | filecheck %s --check-prefixes=CHECK,VFENCE
// RUN: ascend-opt %s --split-input-file -p "ascend-insert-barrier-sync{chip=ascend950}" | filecheck %s --check-prefixes=CHECK,VORDER

// Straight-line vector kernel: a barrier before every op that depends on a different
// pipe's op, none between the two independent loads, and one that drains the kernel.

// CHECK-LABEL: func.func @vadd
// CHECK:       hivm.hir.load ins(%x
// CHECK-NEXT:  hivm.hir.load ins(%y
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  hivm.hir.vadd
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  hivm.hir.store
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  func.return
func.func @vadd(%x: memref<512xf32, #hivm.address_space<gm>>, %y: memref<512xf32, #hivm.address_space<gm>>, %z: memref<512xf32, #hivm.address_space<gm>>) {
  %ux = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
  %uy = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
  %uz = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%x : memref<512xf32, #hivm.address_space<gm>>) outs(%ux : memref<512xf32, #hivm.address_space<ub>>)
  hivm.hir.load ins(%y : memref<512xf32, #hivm.address_space<gm>>) outs(%uy : memref<512xf32, #hivm.address_space<ub>>)
  hivm.hir.vadd ins(%ux, %uy : memref<512xf32, #hivm.address_space<ub>>, memref<512xf32, #hivm.address_space<ub>>) outs(%uz : memref<512xf32, #hivm.address_space<ub>>)
  hivm.hir.store ins(%uz : memref<512xf32, #hivm.address_space<ub>>) outs(%z : memref<512xf32, #hivm.address_space<gm>>)
  return
}

// -----

// Two loads into the same buffer (MTE2 overlaps its own ops) need a barrier. Dependent
// vector ops get pipe_barrier[<PIPE_V>] on the 910B (what bishengir inserts between them
// there), nothing on the 950, whose V pipe keeps them in order (chips.needs_barrier).

// CHECK-LABEL: func.func @same_pipe
// CHECK:       hivm.hir.load ins(%x
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  hivm.hir.load ins(%y
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  hivm.hir.vexp
// VFENCE-NEXT: hivm.hir.pipe_barrier[<PIPE_V>]
// CHECK-NEXT:  hivm.hir.vmul
// VFENCE-NEXT: hivm.hir.pipe_barrier[<PIPE_V>]
// CHECK-NEXT:  hivm.hir.vrelu
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  hivm.hir.store
func.func @same_pipe(%x: memref<64xf16, #hivm.address_space<gm>>, %y: memref<64xf16, #hivm.address_space<gm>>, %z: memref<64xf16, #hivm.address_space<gm>>) {
  %u = memref.alloc() : memref<64xf16, #hivm.address_space<ub>>
  %v = memref.alloc() : memref<64xf16, #hivm.address_space<ub>>
  hivm.hir.load ins(%x : memref<64xf16, #hivm.address_space<gm>>) outs(%u : memref<64xf16, #hivm.address_space<ub>>)
  hivm.hir.load ins(%y : memref<64xf16, #hivm.address_space<gm>>) outs(%u : memref<64xf16, #hivm.address_space<ub>>)
  hivm.hir.vexp ins(%u : memref<64xf16, #hivm.address_space<ub>>) outs(%v : memref<64xf16, #hivm.address_space<ub>>)
  hivm.hir.vmul ins(%v, %u : memref<64xf16, #hivm.address_space<ub>>, memref<64xf16, #hivm.address_space<ub>>) outs(%v : memref<64xf16, #hivm.address_space<ub>>)
  hivm.hir.vrelu ins(%v : memref<64xf16, #hivm.address_space<ub>>) outs(%v : memref<64xf16, #hivm.address_space<ub>>)
  hivm.hir.store ins(%v : memref<64xf16, #hivm.address_space<ub>>) outs(%z : memref<64xf16, #hivm.address_space<gm>>)
  return
}

// -----

// Barriers already present are respected: no second barrier next to one.

// CHECK-LABEL: func.func @existing_barrier
// CHECK:       hivm.hir.load
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  hivm.hir.vabs
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  hivm.hir.store
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  func.return
func.func @existing_barrier(%x: memref<64xf32, #hivm.address_space<gm>>, %z: memref<64xf32, #hivm.address_space<gm>>) {
  %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  hivm.hir.vabs ins(%u : memref<64xf32, #hivm.address_space<ub>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.store ins(%u : memref<64xf32, #hivm.address_space<ub>>) outs(%z : memref<64xf32, #hivm.address_space<gm>>)
  return
}

// -----

// Subviews of one buffer are the same buffer; distinct GM arguments are not.

// CHECK-LABEL: func.func @subviews
// CHECK:       hivm.hir.load ins(%x
// CHECK-NEXT:  %h = memref.subview
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  hivm.hir.store ins(%h
// CHECK-NEXT:  hivm.hir.store ins(%h
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  func.return
func.func @subviews(%x: memref<64xf32, #hivm.address_space<gm>>, %y: memref<32xf32, #hivm.address_space<gm>>, %z: memref<32xf32, #hivm.address_space<gm>>) {
  %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
  %h = memref.subview %u[32] [32] [1] : memref<64xf32, #hivm.address_space<ub>> to memref<32xf32, strided<[1], offset: 32>, #hivm.address_space<ub>>
  hivm.hir.store ins(%h : memref<32xf32, strided<[1], offset: 32>, #hivm.address_space<ub>>) outs(%y : memref<32xf32, #hivm.address_space<gm>>)
  hivm.hir.store ins(%h : memref<32xf32, strided<[1], offset: 32>, #hivm.address_space<ub>>) outs(%z : memref<32xf32, #hivm.address_space<gm>>)
  return
}

// -----

// One PIPE_V barrier fences every earlier vector op: independent vector ops in between
// need none, and a later op that depends on both is ordered by the same fence.

// CHECK-LABEL: func.func @v_fence
// CHECK:       hivm.hir.vexp ins(%u
// CHECK-NEXT:  hivm.hir.vabs ins(%w
// VFENCE-NEXT: hivm.hir.pipe_barrier[<PIPE_V>]
// CHECK-NEXT:  hivm.hir.vadd
// CHECK-NEXT:  hivm.hir.vrelu ins(%w
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  func.return
func.func @v_fence() {
  %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %v = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %w = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %t = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %s = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  hivm.hir.vexp ins(%u : memref<64xf32, #hivm.address_space<ub>>) outs(%v : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.vabs ins(%w : memref<64xf32, #hivm.address_space<ub>>) outs(%t : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.vadd ins(%v, %t : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%s : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.vrelu ins(%w : memref<64xf32, #hivm.address_space<ub>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
  return
}

// -----

// A function without hivm ops is left alone.

// CHECK-LABEL: func.func @nothing
// CHECK-NEXT:  func.return
func.func @nothing() {
  return
}
