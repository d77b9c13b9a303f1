// Fast tier: ascend-pipeline-loops/skew.mlir (the pass on a staged loop) and test_unroll.py
// (unrolled kernels compiled and simulated) stand in.
// UNSUPPORTED: fast-tier
// ascend-pipeline-loops on loops ascend-modulo-schedule unrolled (issue 18 item 2): the
// unrolled body is pipelined like any other (stage skewing when a pipe holds two
// stages; test_unroll.py runs such loops too), and ascend-insert-sync then finds one set point per pipe and pass for the
// U copies of each producer: one set_flag after the U loads (MTE2 -> V), one after the
// U stores (MTE3 -> V), so each pipe drains once per U iterations, as scheduled. The
// vector pipe has no drain (its ops complete when their ii ends: unroll.coalesced leaves
// it out), so each vrelu releases its own copy's store and next load (U = 2: solved at
// 231, its code runs at 222 a pair, written so: the solver's stages and offsets at the
// II the code runs at, the replay being of the unrolled loop's own dependences, as
// insert-sync sees them; 2029 -> 1893 cycles at 16 tiles, 120.5 -> 111 per tile).
// The schedule is solved once: insert-sync and verify-sync run on the pipelined output.
// RUN: ascend-opt %s --split-input-file -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule,ascend-plan-memory,ascend-multi-buffer,ascend-pipeline-loops 2>/dev/null > %t
// RUN: filecheck %s --input-file=%t
// RUN: ascend-opt %t --split-input-file -p ascend-insert-sync,ascend-verify-sync | filecheck %s --check-prefix=SYNC

// U = 2 (num_stages 2): one stage per pipe, the body in start order, step 2.
// CHECK-LABEL: func.func @pair(
// CHECK:       scf.for %i = %c0 to %ctrips step %c2 {
// CHECK-COUNT-2: hivm.hir.load
// CHECK:       hivm.hir.vrelu
// CHECK:       hivm.hir.store
// CHECK:       hivm.hir.vrelu
// CHECK:       hivm.hir.store
// CHECK-NOT:   hivm.hir
// CHECK:       } {ascend.loop = #ascend.loop<ii = 222, {{.*}} ascend.unroll = 2 : i64, ascend.solver_ii = 231 : i64}
// SYNC-LABEL:  func.func @pair(
// SYNC:        scf.for %i = %c0 to %ctrips step %c2 {
// SYNC:          hivm.hir.load
// SYNC-NOT:      hivm.hir.set_flag
// SYNC:          hivm.hir.load
// SYNC-NEXT:     hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// SYNC-NOT:      hivm.hir.set_flag[<PIPE_MTE2>
// SYNC:          hivm.hir.vrelu
// SYNC-NEXT:     hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
// SYNC-NEXT:     hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
// SYNC-NOT:      hivm.hir.set_flag
// SYNC:          hivm.hir.store
// SYNC-NOT:      hivm.hir.set_flag
// SYNC:          hivm.hir.vrelu
// SYNC-NEXT:     hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID1>]
// SYNC-NEXT:     hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
// SYNC-NOT:      hivm.hir.set_flag
// SYNC:          hivm.hir.store
// SYNC-NEXT:     hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
// SYNC-NEXT:   } {ascend.loop

module {
func.func @pair(%x: memref<8192xf32, #hivm.address_space<gm>>, %z: memref<8192xf32, #hivm.address_space<gm>>) attributes {tile.kernel, tile.grid = 1 : i64} {
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

// U = 4 (num_stages 4): one stage per pipe again, the body in start order, step 4 (II
// 295 -> 277 with the vector pipe releasing each copy on its own).
// CHECK-LABEL: func.func @quad(
// CHECK:       scf.for %i = %c0 to %ctrips step %c4 {
// CHECK-COUNT-4: hivm.hir.load
// CHECK-COUNT-4: hivm.hir.vrelu
// CHECK-COUNT-4: hivm.hir.store
// CHECK:       } {ascend.loop = #ascend.loop<ii = 277, {{.*}} ascend.unroll = 4 : i64}
// SYNC-LABEL:  func.func @quad(
// SYNC:        scf.for %i = %c0 to %ctrips step %c4 {
// SYNC:          hivm.hir.load
// SYNC-NOT:      hivm.hir.set_flag
// SYNC:          hivm.hir.load
// SYNC-NOT:      hivm.hir.set_flag
// SYNC:          hivm.hir.load
// SYNC-NOT:      hivm.hir.set_flag
// SYNC:          hivm.hir.load
// SYNC-NEXT:     hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// SYNC:          hivm.hir.store
// SYNC-NOT:      hivm.hir.set_flag
// SYNC:          hivm.hir.store
// SYNC-NOT:      hivm.hir.set_flag
// SYNC:          hivm.hir.store
// SYNC-NOT:      hivm.hir.set_flag
// SYNC:          hivm.hir.store
// SYNC-NEXT:     hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
// SYNC-NEXT:   } {ascend.loop

module {
func.func @quad(%x: memref<8192xf32, #hivm.address_space<gm>>, %z: memref<8192xf32, #hivm.address_space<gm>>) attributes {tile.kernel, tile.grid = 1 : i64} {
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
  } {tile.num_stages = 4 : i64}
  return
}
}
