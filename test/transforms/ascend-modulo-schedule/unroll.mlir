// The unroll factor U (issue 18 item 2): a store's flag drains MTE3 for its GM latency
// (189 cycles here, ii 10), once per set point. Unrolled U times, the U copies of each
// pipe's producers publish at one point: one drain per U iterations. ascend-modulo-schedule
// solves the loop once per U in 1, 2, 4 (U at most num_stages: each copy of the body gets
// its own copy of the loop's buffers, num_stages / U versions each) and keeps the lowest
// II / U (ties: the smaller U); it then unrolls the loop in the IR and schedules the
// unrolled loop again as it now stands. U = 1 leaves the loop as it was (unroll.mlir's
// last cases, and every example but vecadd: byte-identical output).
// RUN: ascend-opt %s --split-input-file -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule | filecheck %s
// RUN: ascend-opt %s --split-input-file -p 'convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule{unroll=1}' | filecheck %s --check-prefix=NONE
// RUN: not ascend-opt %s --split-input-file -p 'convert-tile-to-hivm,ascend-modulo-schedule{unroll=3}' 2>&1 | filecheck %s --check-prefix=BAD
// BAD: unroll must be one of 1, 2, 4, got 3

// 16 trips, num_stages 2: U = 2 (II 222 for two iterations against 189 for one: solved
// at 231, written at the II its code runs at, the solver's stages kept); the
// copy of the body has its own buffers (one version each: 2 / U); no remainder.
// CHECK-LABEL: func.func @even(
// CHECK:       %ux = memref.alloc() {ascend.buffer = #ascend.buffer<versions = 1>}
// CHECK-NEXT:  %ux_u1 = memref.alloc() {ascend.buffer = #ascend.buffer<versions = 1>}
// CHECK:       %uz = memref.alloc() {ascend.buffer = #ascend.buffer<versions = 1>}
// CHECK-NEXT:  %uz_u1 = memref.alloc() {ascend.buffer = #ascend.buffer<versions = 1>}
// CHECK:       scf.for %i = %c0 to %ctrips step %c2 {
// CHECK:         hivm.hir.load {{.*}} outs(%ux :
// CHECK:         hivm.hir.vrelu {{.*}} ins(%ux : {{.*}} outs(%uz :
// CHECK:         hivm.hir.store ins(%uz :
// CHECK:         %i_1 = arith.addi %i, %c1_1 : index
// CHECK:         hivm.hir.load {{.*}} outs(%ux_u1 :
// CHECK:         hivm.hir.vrelu {{.*}} ins(%ux_u1 : {{.*}} outs(%uz_u1 :
// CHECK:         hivm.hir.store ins(%uz_u1 :
// CHECK:       } {ascend.num_stages = 1 : i64, ascend.unroll = 2 : i64, ascend.loop = #ascend.loop<ii = 222,
// CHECK-NOT:   scf.for
// CHECK:       return
// NONE-LABEL:  func.func @even(
// NONE:        scf.for %i = %c0 to %ctrips step %c1 {
// NONE-NOT:    ascend.unroll
// NONE:        } {ascend.num_stages = 2 : i64, ascend.loop = #ascend.loop<ii = 189,
module {
func.func @even(%x: memref<8192xf32, #hivm.address_space<gm>>, %z: memref<8192xf32, #hivm.address_space<gm>>) attributes {tile.kernel, tile.grid = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ctrips = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %ux = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
  %uz = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %ctrips step %c1 {
    %off = arith.muli %i, %c256 : index
    %xs = memref.subview %x[%off] [256] [1] : memref<8192xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    %zs = memref.subview %z[%off] [256] [1] : memref<8192xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    tile.copy ins(%xs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux : memref<256xf32, #hivm.address_space<ub>>)
    tile.relu ins(%ux : memref<256xf32, #hivm.address_space<ub>>) outs(%uz : memref<256xf32, #hivm.address_space<ub>>)
    tile.copy ins(%uz : memref<256xf32, #hivm.address_space<ub>>) outs(%zs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
  } {tile.num_stages = 2 : i64}
  return
}
}


// -----

// 7 trips: the unrolled loop runs 3 pairs (to 6), the remainder loop the last trip with
// the original buffers (its own schedule, 2 versions there); the copies get new ones.
// CHECK-LABEL: func.func @odd(
// CHECK:       %ux = memref.alloc()
// CHECK-NEXT:  %ux_u0 = memref.alloc()
// CHECK-NEXT:  %ux_u1 = memref.alloc()
// CHECK:       scf.for %i = %c0 to %c6 step %c2 {
// CHECK:         outs(%ux_u0 :
// CHECK:         outs(%ux_u1 :
// CHECK:       } {ascend.num_stages = 1 : i64, ascend.unroll = 2 : i64, ascend.loop = #ascend.loop<ii = 222,
// CHECK:       scf.for %i_2 = %c6 to %ctrips step %c1 {
// CHECK:         outs(%ux :
// CHECK:       } {ascend.num_stages = 2 : i64, ascend.loop = #ascend.loop<ii = 189,
module {
func.func @odd(%x: memref<8192xf32, #hivm.address_space<gm>>, %z: memref<8192xf32, #hivm.address_space<gm>>) attributes {tile.kernel, tile.grid = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ctrips = arith.constant 7 : index
  %c256 = arith.constant 256 : index
  %ux = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
  %uz = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %ctrips step %c1 {
    %off = arith.muli %i, %c256 : index
    %xs = memref.subview %x[%off] [256] [1] : memref<8192xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    %zs = memref.subview %z[%off] [256] [1] : memref<8192xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    tile.copy ins(%xs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux : memref<256xf32, #hivm.address_space<ub>>)
    tile.relu ins(%ux : memref<256xf32, #hivm.address_space<ub>>) outs(%uz : memref<256xf32, #hivm.address_space<ub>>)
    tile.copy ins(%uz : memref<256xf32, #hivm.address_space<ub>>) outs(%zs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
  } {tile.num_stages = 2 : i64}
  return
}
}


// -----

// A runtime trip count: the unrolled loop ends at lb + (N / 2) * 2, the remainder runs
// the rest (0 or 1 trips).
// CHECK-LABEL: func.func @runtime(
// CHECK:       %[[SPAN:.*]] = arith.subi %n, %c0 : index
// CHECK:       %[[N:.*]] = arith.maxsi %[[SPAN]], %{{.*}} : index
// CHECK:       %[[PAIRS:.*]] = arith.divui %[[N]], %c2 : index
// CHECK:       %[[WIDTH:.*]] = arith.muli %[[PAIRS]], %{{.*}} : index
// CHECK:       %unrolled_ub = arith.addi %c0, %[[WIDTH]] : index
// CHECK:       scf.for %i = %c0 to %unrolled_ub step %{{.*}} {
// CHECK:       } {ascend.num_stages = 1 : i64, ascend.unroll = 2 : i64,
// CHECK:       scf.for %i_2 = %unrolled_ub to %n step %c1 {
module {
func.func @runtime(%x: memref<8192xf32, #hivm.address_space<gm>>, %z: memref<8192xf32, #hivm.address_space<gm>>, %n: index) attributes {tile.kernel, tile.grid = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ctrips = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %ux = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
  %uz = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %n step %c1 {
    %off = arith.muli %i, %c256 : index
    %xs = memref.subview %x[%off] [256] [1] : memref<8192xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    %zs = memref.subview %z[%off] [256] [1] : memref<8192xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    tile.copy ins(%xs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux : memref<256xf32, #hivm.address_space<ub>>)
    tile.relu ins(%ux : memref<256xf32, #hivm.address_space<ub>>) outs(%uz : memref<256xf32, #hivm.address_space<ub>>)
    tile.copy ins(%uz : memref<256xf32, #hivm.address_space<ub>>) outs(%zs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
  } {tile.num_stages = 2 : i64}
  return
}
}


// -----

// Fewer trips than U, or one version only (num_stages 1): nothing to unroll.
// CHECK-LABEL: func.func @short(
// CHECK:       scf.for %i = %c0 to %ctrips step %c1 {
// CHECK-NOT:   ascend.unroll
// CHECK:       return
module {
func.func @short(%x: memref<8192xf32, #hivm.address_space<gm>>, %z: memref<8192xf32, #hivm.address_space<gm>>) attributes {tile.kernel, tile.grid = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ctrips = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %ux = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
  %uz = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %ctrips step %c1 {
    %off = arith.muli %i, %c256 : index
    %xs = memref.subview %x[%off] [256] [1] : memref<8192xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    %zs = memref.subview %z[%off] [256] [1] : memref<8192xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    tile.copy ins(%xs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux : memref<256xf32, #hivm.address_space<ub>>)
    tile.relu ins(%ux : memref<256xf32, #hivm.address_space<ub>>) outs(%uz : memref<256xf32, #hivm.address_space<ub>>)
    tile.copy ins(%uz : memref<256xf32, #hivm.address_space<ub>>) outs(%zs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
  } {tile.num_stages = 2 : i64}
  return
}
}


// -----

// CHECK-LABEL: func.func @single(
// CHECK:       scf.for %i = %c0 to %ctrips step %c1 {
// CHECK-NOT:   ascend.unroll
// CHECK:       return
module {
func.func @single(%x: memref<8192xf32, #hivm.address_space<gm>>, %z: memref<8192xf32, #hivm.address_space<gm>>) attributes {tile.kernel, tile.grid = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ctrips = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %ux = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
  %uz = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %ctrips step %c1 {
    %off = arith.muli %i, %c256 : index
    %xs = memref.subview %x[%off] [256] [1] : memref<8192xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    %zs = memref.subview %z[%off] [256] [1] : memref<8192xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    tile.copy ins(%xs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux : memref<256xf32, #hivm.address_space<ub>>)
    tile.relu ins(%ux : memref<256xf32, #hivm.address_space<ub>>) outs(%uz : memref<256xf32, #hivm.address_space<ub>>)
    tile.copy ins(%uz : memref<256xf32, #hivm.address_space<ub>>) outs(%zs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
  } {tile.num_stages = 1 : i64}
  return
}
}
