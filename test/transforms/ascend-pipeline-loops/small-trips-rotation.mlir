// RUN: ascend-opt %s -p ascend-pipeline-loops | filecheck %s

// The program-order copy of a runtime count's first trips takes version 0 of each buffer
// where the attribute says `one_version` (small-trips.mlir): the remainders
// ascend-multi-buffer marked `ascend.version_index` become 0, no other. This loop rotates
// its own two buffers in the input: it loads the next pass's row into `(i + 1) mod 2` and
// reads this pass's from `i mod 2`, data carried from pass to pass, which one version
// would break. The copy keeps both remainders, and no mark is left.
// CHECK-LABEL: func.func @rotation
// CHECK:       scf.if %{{.*}} {
// CHECK:       } else {
// CHECK-NEXT:    scf.for %[[I:.*]] = %c0 to %n step %c1 {
// CHECK:           %[[I1:.*]] = arith.addi %[[I]], %c1 : index
// CHECK:           arith.remui %[[I1]], %c2 : index
// CHECK:           hivm.hir.load
// CHECK:           arith.remui %[[I]], %c2 : index
// CHECK:           hivm.hir.vexp
// CHECK-NOT:   ascend.version_index
func.func @rotation(%n: index, %x: memref<9x64xf32, #hivm.address_space<gm>>, %z: memref<8x64xf32, #hivm.address_space<gm>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : i64
  %a2 = arith.constant 512 : i64
  %ub = hivm.hir.pointer_cast(%a2) : memref<64xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %n step %c1 {
    %cur = arith.remui %i, %c2 : index
    %cur64 = arith.index_cast %cur : index to i64
    %cur_addr = arith.muli %cur64, %c256 : i64
    %ua_cur = hivm.hir.pointer_cast(%cur_addr) : memref<64xf32, #hivm.address_space<ub>>
    %i1 = arith.addi %i, %c1 : index
    %next = arith.remui %i1, %c2 : index
    %next64 = arith.index_cast %next : index to i64
    %next_addr = arith.muli %next64, %c256 : i64
    %ua_next = hivm.hir.pointer_cast(%next_addr) : memref<64xf32, #hivm.address_space<ub>>
    %xs = memref.subview %x[%i1, 0] [1, 64] [1, 1] : memref<9x64xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.load ins(%xs : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ua_next : memref<64xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 100, ii = 10, stage = 0, start = 0>}
    hivm.hir.vexp {ascend.task = #ascend.task<latency = 10, ii = 10, stage = 0, start = 100>} ins(%ua_cur : memref<64xf32, #hivm.address_space<ub>>) outs(%ub : memref<64xf32, #hivm.address_space<ub>>)
    %zs = memref.subview %z[%i, 0] [1, 64] [1, 1] : memref<8x64xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.store ins(%ub : memref<64xf32, #hivm.address_space<ub>>) outs(%zs : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) {ascend.task = #ascend.task<latency = 100, ii = 10, stage = 0, start = 110>}
  } {ascend.loop = #ascend.loop<ii = 120, mii = 20, status = "optimal", res_mii = {MTE2 = 10, MTE3 = 10, V = 10}, rec_mii = 0, binding = "MTE2">, ascend.small_trips = {below = 1 : i64, loop = #ascend.loop<ii = 211, mii = 20, status = "program-order", res_mii = {MTE2 = 10, MTE3 = 10, V = 10}, rec_mii = 0, binding = "MTE2">, one_version, start = array<i64: 0, 100, 110>}}
  return
}
