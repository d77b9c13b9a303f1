// RUN: ascend-opt %s -p ascend-pipeline-loops | filecheck %s

// A stage-skewed loop of a count known at run time is guarded by `scf.if (ub - lb >
// (S - 2) * step)`: its prologue, kernel and epilogue need S - 1 iterations. With three
// stages the else branch runs one iteration (or none) in start order. With two it would
// run none, ever, while the flags insert-sync puts around a loop still ran there (narrow
// seed 4137 on the 910B: 14 of the 518 cycles of one trip): no else branch at all.

// CHECK-LABEL: func.func @two_stages
// CHECK:       %[[SPAN:.*]] = arith.subi %n, %c0
// CHECK:       %[[NEED:.*]] = arith.muli
// CHECK:       %[[ENOUGH:.*]] = arith.cmpi sgt, %[[SPAN]], %[[NEED]]
// CHECK:       scf.if %[[ENOUGH]] {
// CHECK:         hivm.hir.load
// CHECK:         scf.for
// CHECK:           hivm.hir.store
// CHECK:         } {ascend.loop = #ascend.loop<ii = 200, {{.*}}>, ascend.pipelined}
// CHECK:         hivm.hir.load
// CHECK:         hivm.hir.store
// CHECK-NEXT:  }
// CHECK-NEXT:  return
func.func @two_stages(%x: memref<?x64xf32, #hivm.address_space<gm>>, %y: memref<?x64xf32, #hivm.address_space<gm>>, %z: memref<?x64xf32, #hivm.address_space<gm>>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a0 = arith.constant 0 : i64
  %a1 = arith.constant 256 : i64
  %a2 = arith.constant 512 : i64
  %a3 = arith.constant 768 : i64
  %ua = hivm.hir.pointer_cast(%a0, %a1) : memref<64xf32, #hivm.address_space<ub>>
  %uc = hivm.hir.pointer_cast(%a2) : memref<64xf32, #hivm.address_space<ub>>
  %ud = hivm.hir.pointer_cast(%a3) : memref<64xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %n step %c1 {
    %xs = memref.subview %x[%i, 0] [1, 64] [1, 1] : memref<?x64xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.load ins(%xs : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ua : memref<64xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 100, ii = 10, stage = 0, start = 0>}
    %ys = memref.subview %y[%i, 0] [1, 64] [1, 1] : memref<?x64xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.load ins(%ys : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%uc : memref<64xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 100, ii = 10, stage = 1, start = 210>}
    hivm.hir.vadd {ascend.task = #ascend.task<latency = 10, ii = 10, stage = 1, start = 310>} ins(%ua, %uc : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%ud : memref<64xf32, #hivm.address_space<ub>>)
    %zs = memref.subview %z[%i, 0] [1, 64] [1, 1] : memref<?x64xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.store ins(%ud : memref<64xf32, #hivm.address_space<ub>>) outs(%zs : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) {ascend.task = #ascend.task<latency = 100, ii = 10, stage = 1, start = 320>}
  } {ascend.loop = #ascend.loop<ii = 200, mii = 20, status = "optimal", res_mii = {MTE2 = 20, MTE3 = 10, V = 10}, rec_mii = 0, binding = "MTE2">}
  return
}

// CHECK-LABEL: func.func @three_stages
// CHECK:       scf.if %{{.*}} {
// CHECK:         scf.for
// CHECK:         } {ascend.loop = #ascend.loop<ii = 200, {{.*}}>, ascend.pipelined}
// CHECK:       } else {
// CHECK-NEXT:    scf.for %{{.*}} = %c0 to %n step %c1 {
// CHECK:           hivm.hir.load
// CHECK:           hivm.hir.load
// CHECK:           hivm.hir.vadd
// CHECK:           hivm.hir.store
// CHECK:         }
// CHECK-NEXT:  }
func.func @three_stages(%x: memref<?x64xf32, #hivm.address_space<gm>>, %y: memref<?x64xf32, #hivm.address_space<gm>>, %z: memref<?x64xf32, #hivm.address_space<gm>>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a0 = arith.constant 0 : i64
  %a1 = arith.constant 256 : i64
  %a2 = arith.constant 512 : i64
  %a3 = arith.constant 768 : i64
  %ua = hivm.hir.pointer_cast(%a0, %a1) : memref<64xf32, #hivm.address_space<ub>>
  %uc = hivm.hir.pointer_cast(%a2) : memref<64xf32, #hivm.address_space<ub>>
  %ud = hivm.hir.pointer_cast(%a3) : memref<64xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %n step %c1 {
    %xs = memref.subview %x[%i, 0] [1, 64] [1, 1] : memref<?x64xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.load ins(%xs : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ua : memref<64xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 100, ii = 10, stage = 0, start = 0>}
    %ys = memref.subview %y[%i, 0] [1, 64] [1, 1] : memref<?x64xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.load ins(%ys : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%uc : memref<64xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 100, ii = 10, stage = 1, start = 210>}
    hivm.hir.vadd {ascend.task = #ascend.task<latency = 10, ii = 10, stage = 1, start = 310>} ins(%ua, %uc : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%ud : memref<64xf32, #hivm.address_space<ub>>)
    %zs = memref.subview %z[%i, 0] [1, 64] [1, 1] : memref<?x64xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.store ins(%ud : memref<64xf32, #hivm.address_space<ub>>) outs(%zs : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) {ascend.task = #ascend.task<latency = 100, ii = 10, stage = 2, start = 420>}
  } {ascend.loop = #ascend.loop<ii = 200, mii = 20, status = "optimal", res_mii = {MTE2 = 20, MTE3 = 10, V = 10}, rec_mii = 0, binding = "MTE2">}
  return
}
