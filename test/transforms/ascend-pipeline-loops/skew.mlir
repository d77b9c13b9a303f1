// RUN: ascend-opt %s -p ascend-multi-buffer,ascend-pipeline-loops | filecheck %s

// II = 100 and three stages; MTE2 holds ops of stages 0 and 1, so the loop is skewed:
// op i of iteration j issues in kernel iteration j + stage_i, ordered by start mod II:
// load x (stage 0, offset 0), load y (1, 10), vexp (1, 20), vadd (2, 30), store (2, 50).
// 8 iterations: prologue t = 0, 1; kernel t = 2 .. 7 (iv from 2); epilogue t = 8, 9.
// The buffers written in one stage and read in a later one have two versions (as the
// scheduler would give them); each op's version index is that of its own iteration.

// CHECK-LABEL: func.func @skew
// Prologue t = 0: iteration 0's first load only, into version 0 of %ua.
// CHECK:      memref.subview %x[%c0{{(_[0-9]+)?}}, 0]
// CHECK:      %ver = arith.remui %c0{{(_[0-9]+)?}}, %c2{{(_[0-9]+)?}} : index
// CHECK:      hivm.hir.load {{.*}} {ascend.task = #ascend.task<latency = 100, ii = 10, stage = 0, start = 0>}
// CHECK-NOT:  hivm.hir.{{load|store|v[a-z]+}}
// Prologue t = 1: load x of iteration 1, then load y and vexp of iteration 0.
// CHECK:      memref.subview %x[%c1{{(_[0-9]+)?}}, 0]
// CHECK:      hivm.hir.load
// CHECK:      memref.subview %y[%c0{{(_[0-9]+)?}}, 0]
// CHECK:      hivm.hir.load
// CHECK:      hivm.hir.vexp
// CHECK-NOT:  hivm.hir.{{load|store|v[a-z]+}}
// CHECK:      scf.for %i = %c2{{(_[0-9]+)?}} to %c8{{(_[0-9]+)?}} step %c1{{(_[0-9]+)?}} {
// stage k runs iteration iv - k
// CHECK:        memref.subview %x[%i, 0]
// CHECK:        hivm.hir.load
// CHECK:        %[[I1:.*]] = arith.subi %i, %{{.*}} : index
// CHECK:        memref.subview %y[%[[I1]], 0]
// CHECK:        hivm.hir.load
// CHECK:        arith.remui %[[I1]]
// CHECK:        hivm.hir.vexp
// CHECK:        %[[I2:.*]] = arith.subi %i, %{{.*}} : index
// CHECK:        arith.remui %[[I2]]
// CHECK:        hivm.hir.vadd
// CHECK:        memref.subview %z[%[[I2]], 0]
// CHECK:        hivm.hir.store
// CHECK-NEXT: } {ascend.loop = #ascend.loop<ii = 100, {{.*}}>, ascend.pipelined}
// Epilogue t = 8: iteration 7's stage-1 ops and iteration 6's stage-2 ops; t = 9: iteration 7's stage 2.
// CHECK:      memref.subview %y[%c7{{(_[0-9]+)?}}, 0]
// CHECK:      hivm.hir.load
// CHECK:      hivm.hir.vexp
// CHECK:      hivm.hir.vadd
// CHECK:      memref.subview %z[%c6{{(_[0-9]+)?}}, 0]
// CHECK:      hivm.hir.store
// CHECK:      hivm.hir.vadd
// CHECK:      memref.subview %z[%c7{{(_[0-9]+)?}}, 0]
// CHECK:      hivm.hir.store
// CHECK-NOT:  hivm.hir.{{load|store|v[a-z]+}}
// CHECK:      return
func.func @skew(%x: memref<8x64xf32, #hivm.address_space<gm>>, %y: memref<8x64xf32, #hivm.address_space<gm>>, %z: memref<8x64xf32, #hivm.address_space<gm>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %a0 = arith.constant 0 : i64
  %a1 = arith.constant 256 : i64
  %a2 = arith.constant 512 : i64
  %a3 = arith.constant 768 : i64
  %a4 = arith.constant 1024 : i64
  %a5 = arith.constant 1280 : i64
  %a6 = arith.constant 1536 : i64
  %ua = hivm.hir.pointer_cast(%a0, %a1) : memref<64xf32, #hivm.address_space<ub>>
  %ub = hivm.hir.pointer_cast(%a2, %a3) : memref<64xf32, #hivm.address_space<ub>>
  %uc = hivm.hir.pointer_cast(%a4, %a5) : memref<64xf32, #hivm.address_space<ub>>
  %ud = hivm.hir.pointer_cast(%a6) : memref<64xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %c8 step %c1 {
    %xs = memref.subview %x[%i, 0] [1, 64] [1, 1] : memref<8x64xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.load ins(%xs : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ua : memref<64xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 100, ii = 10, stage = 0, start = 0>}
    hivm.hir.vexp {ascend.task = #ascend.task<latency = 10, ii = 10, stage = 1, start = 120>} ins(%ua : memref<64xf32, #hivm.address_space<ub>>) outs(%ub : memref<64xf32, #hivm.address_space<ub>>)
    %ys = memref.subview %y[%i, 0] [1, 64] [1, 1] : memref<8x64xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.load ins(%ys : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%uc : memref<64xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 100, ii = 10, stage = 1, start = 110>}
    hivm.hir.vadd {ascend.task = #ascend.task<latency = 10, ii = 10, stage = 2, start = 230>} ins(%ub, %uc : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%ud : memref<64xf32, #hivm.address_space<ub>>)
    %zs = memref.subview %z[%i, 0] [1, 64] [1, 1] : memref<8x64xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.store ins(%ud : memref<64xf32, #hivm.address_space<ub>>) outs(%zs : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) {ascend.task = #ascend.task<latency = 100, ii = 10, stage = 2, start = 250>}
  } {ascend.loop = #ascend.loop<ii = 100, mii = 20, status = "optimal", res_mii = {MTE2 = 20, MTE3 = 10, V = 20}, rec_mii = 0, binding = "MTE2">}
  return
}
