// RUN: ascend-opt %s --split-input-file -p ascend-multi-buffer,ascend-pipeline-loops > %t
// RUN: filecheck %s --input-file=%t
// RUN: filecheck %s --input-file=%t --check-prefix=OPS

// skew.mlir's loop (three stages, MTE2 holding ops of two of them) at N = S - 1 = 2
// trips: the prologue (kernel iterations 0, 1) and the epilogue (2, 3) cover every op of
// both iterations, and no kernel loop is left between them. An empty kernel loop
// (from lb + 2 to 2) was fenced by the sync pass all the same: random kernel 980 (one
// trip, two stages) waited before it for the prologue's last store, 1214 cycles where
// its code without the loop runs 955 (program order 1039).
// CHECK-LABEL: func.func @two_trips
// CHECK-NOT:   scf.for
// CHECK:       return
// Every op of both iterations once, in kernel-iteration order (t = 0: load x0; t = 1:
// load x1, load y0, vexp 0; t = 2: load y1, vexp 1, vadd 0, store 0; t = 3: vadd 1, store 1):
// OPS-LABEL:   func.func @two_trips
// OPS-COUNT-3: hivm.hir.load
// OPS:         hivm.hir.vexp
// OPS:         hivm.hir.load
// OPS:         hivm.hir.vexp
// OPS:         hivm.hir.vadd
// OPS:         hivm.hir.store
// OPS:         hivm.hir.vadd
// OPS:         hivm.hir.store
// OPS-NOT:     hivm.hir.{{load|store|v[a-z]+}}
// OPS:         return
func.func @two_trips(%x: memref<8x64xf32, #hivm.address_space<gm>>, %y: memref<8x64xf32, #hivm.address_space<gm>>, %z: memref<8x64xf32, #hivm.address_space<gm>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant 2 : index
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
  scf.for %i = %c0 to %cn step %c1 {
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

// -----

// N = S = 3 trips: one kernel iteration, in a loop.
// CHECK-LABEL: func.func @three_trips
// CHECK:       scf.for %i = %c2{{(_[0-9]+)?}} to %cn step %c1{{(_[0-9]+)?}} {
// CHECK:       } {ascend.loop = #ascend.loop<ii = 100, {{.*}}>, ascend.pipelined}
func.func @three_trips(%x: memref<8x64xf32, #hivm.address_space<gm>>, %y: memref<8x64xf32, #hivm.address_space<gm>>, %z: memref<8x64xf32, #hivm.address_space<gm>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant 3 : index
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
  scf.for %i = %c0 to %cn step %c1 {
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
