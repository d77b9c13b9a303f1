// RUN: ascend-opt %s -p ascend-pipeline-loops | filecheck %s

// II = 100, the vector pipe holding ops of stages 0 and 1 (vexp at 90, vadd at 110): without
// `ascend.one_pass` the loop would be emitted stage-skewed (skew.mlir). With it the
// schedule is the timing of one-pass code (an iteration longer than the II, each pipe's
// tasks within 100 cycles, written by ascend-modulo-schedule from the code's replay:
// scheduling/code_timing.one_pass_schedule), so the body is emitted in start order, each
// pass running one iteration: no prologue, no epilogue, no shifted ivs, not
// ascend.pipelined; the attribute stays on the loop.

// CHECK-LABEL: func.func @one_pass
// CHECK-NOT:    hivm.hir.{{load|store|v[a-z]+}}
// CHECK:        scf.for %i = %c0 to %c8 step %c1 {
// CHECK-NOT:      arith.subi
// CHECK:          memref.subview %x[%i, 0]
// CHECK-NEXT:     hivm.hir.load {{.*}} start = 0>}
// CHECK-NEXT:     memref.subview %y[%i, 0]
// CHECK-NEXT:     hivm.hir.load {{.*}} start = 10>}
// CHECK-NEXT:     hivm.hir.vexp {{.*}} stage = 0, start = 90>}
// CHECK-NEXT:     hivm.hir.vadd {{.*}} stage = 1, start = 110>}
// CHECK-NEXT:     memref.subview %z[%i, 0]
// CHECK-NEXT:     hivm.hir.store {{.*}} start = 130>}
// CHECK-NEXT:   } {ascend.loop = #ascend.loop<ii = 100, {{.*}}>, ascend.one_pass}
// CHECK-NOT:    hivm.hir.{{load|store|v[a-z]+}}
// CHECK:        return
func.func @one_pass(%x: memref<8x64xf32, #hivm.address_space<gm>>, %y: memref<8x64xf32, #hivm.address_space<gm>>, %z: memref<8x64xf32, #hivm.address_space<gm>>) {
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
  %ua = hivm.hir.pointer_cast(%a0) : memref<64xf32, #hivm.address_space<ub>>
  %ub = hivm.hir.pointer_cast(%a2) : memref<64xf32, #hivm.address_space<ub>>
  %uc = hivm.hir.pointer_cast(%a4) : memref<64xf32, #hivm.address_space<ub>>
  %ud = hivm.hir.pointer_cast(%a6) : memref<64xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %c8 step %c1 {
    %xs = memref.subview %x[%i, 0] [1, 64] [1, 1] : memref<8x64xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.load ins(%xs : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ua : memref<64xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 90, ii = 10, stage = 0, start = 0>}
    hivm.hir.vexp {ascend.task = #ascend.task<latency = 10, ii = 10, stage = 0, start = 90>} ins(%ua : memref<64xf32, #hivm.address_space<ub>>) outs(%ub : memref<64xf32, #hivm.address_space<ub>>)
    %ys = memref.subview %y[%i, 0] [1, 64] [1, 1] : memref<8x64xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.load ins(%ys : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%uc : memref<64xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 90, ii = 10, stage = 0, start = 10>}
    hivm.hir.vadd {ascend.task = #ascend.task<latency = 10, ii = 10, stage = 1, start = 110>} ins(%ub, %uc : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%ud : memref<64xf32, #hivm.address_space<ub>>)
    %zs = memref.subview %z[%i, 0] [1, 64] [1, 1] : memref<8x64xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.store ins(%ud : memref<64xf32, #hivm.address_space<ub>>) outs(%zs : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) {ascend.task = #ascend.task<latency = 100, ii = 10, stage = 1, start = 130>}
  } {ascend.loop = #ascend.loop<ii = 100, mii = 20, status = "optimal", res_mii = {MTE2 = 20, MTE3 = 10, V = 20}, rec_mii = 0, binding = "MTE2">, ascend.one_pass}
  return
}
