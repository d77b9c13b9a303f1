// RUN: ascend-opt %s -p ascend-multi-buffer,ascend-pipeline-loops | filecheck %s
// RUN: ascend-opt %s -p ascend-multi-buffer,ascend-pipeline-loops,ascend-insert-sync > %t.mlir
// RUN: ascend-opt %t.mlir -p ascend-verify-sync > /dev/null
// RUN: ascend-sim %t.mlir --bind n=1 --json --perturb 3 | filecheck %s --check-prefix=SIM
// RUN: ascend-sim %t.mlir --bind n=2 --json | filecheck %s --check-prefix=SIM
// RUN: ascend-sim %t.mlir --bind n=5 --json --perturb 3 | filecheck %s --check-prefix=SIM

// skew.mlir's loop (three stages) with its trip count taken at run time, and an
// `ascend.small_trips` (ascend-modulo-schedule's, scheduling/small_trips.py): one trip
// runs faster in program order. The pass writes both loops: more than one trip takes the
// stage-skewed form (no `if` of its own for fewer than S - 1 = 2 trips: the outer one
// covers it), one trip (or none) the body in program order, with the attribute's schedule
// on the loop and its tasks, each buffer at its version 0 (`one_version`: no `iv mod 2`). (Unseen seed
// 659 on the 910B, 6 chains, one trip: 1369 cycles, program order 1288; both codes now,
// 1290. Unseen seed 1754 on skewed.toml, 12 chains: the copy at the pipelined loop's two
// versions ran one trip in 1408 cycles, at one version in 1130.)
// CHECK-LABEL: func.func @few
// (more than one trip: n > lb + 1 * step, the constant 1)
// CHECK:       %[[MANY:.*]] = arith.cmpi sgt, %n, %c1_{{[0-9]+}} : index
// CHECK-NEXT:  scf.if %[[MANY]] {
// CHECK:         scf.for
// CHECK:         } {ascend.loop = #ascend.loop<ii = 100, {{.*}}>, ascend.pipelined}
// CHECK-NOT:     scf.for
// CHECK:       } else {
// CHECK-NEXT:    scf.for %i{{(_[0-9]+)?}} = %c0 to %n step %c1 {
// CHECK-NOT:       arith.remui
// CHECK:           hivm.hir.load {{.*}} {ascend.task = #ascend.task<latency = 100, ii = 10, stage = 0, start = 0>}
// CHECK:           hivm.hir.vexp {ascend.task = #ascend.task<latency = 10, ii = 10, stage = 0, start = 100>}
// CHECK:           hivm.hir.load {{.*}} {ascend.task = #ascend.task<latency = 100, ii = 10, stage = 0, start = 110>}
// CHECK:           hivm.hir.vadd {ascend.task = #ascend.task<latency = 10, ii = 10, stage = 0, start = 210>}
// CHECK:           hivm.hir.store {{.*}} {ascend.task = #ascend.task<latency = 100, ii = 10, stage = 0, start = 220>}
// CHECK:         } {ascend.loop = #ascend.loop<ii = 331, mii = 20, status = "program-order", {{.*}}>}
// CHECK-NOT:     ascend.small_trips
// CHECK:       }
// CHECK-NEXT:  return

// SIM: "races": []
// SIM-SAME: "ok": true

func.func @few(%n: index, %x: memref<8x64xf32, #hivm.address_space<gm>>, %y: memref<8x64xf32, #hivm.address_space<gm>>, %z: memref<8x64xf32, #hivm.address_space<gm>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
  scf.for %i = %c0 to %n step %c1 {
    %xs = memref.subview %x[%i, 0] [1, 64] [1, 1] : memref<8x64xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.load ins(%xs : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ua : memref<64xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 100, ii = 10, stage = 0, start = 0>}
    hivm.hir.vexp {ascend.task = #ascend.task<latency = 10, ii = 10, stage = 1, start = 120>} ins(%ua : memref<64xf32, #hivm.address_space<ub>>) outs(%ub : memref<64xf32, #hivm.address_space<ub>>)
    %ys = memref.subview %y[%i, 0] [1, 64] [1, 1] : memref<8x64xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.load ins(%ys : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%uc : memref<64xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 100, ii = 10, stage = 1, start = 110>}
    hivm.hir.vadd {ascend.task = #ascend.task<latency = 10, ii = 10, stage = 2, start = 230>} ins(%ub, %uc : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%ud : memref<64xf32, #hivm.address_space<ub>>)
    %zs = memref.subview %z[%i, 0] [1, 64] [1, 1] : memref<8x64xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.store ins(%ud : memref<64xf32, #hivm.address_space<ub>>) outs(%zs : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) {ascend.task = #ascend.task<latency = 100, ii = 10, stage = 2, start = 250>}
  } {ascend.loop = #ascend.loop<ii = 100, mii = 20, status = "optimal", res_mii = {MTE2 = 20, MTE3 = 10, V = 20}, rec_mii = 0, binding = "MTE2">, ascend.small_trips = {below = 1 : i64, loop = #ascend.loop<ii = 331, mii = 20, status = "program-order", res_mii = {MTE2 = 20, MTE3 = 10, V = 20}, rec_mii = 0, binding = "MTE2">, one_version, start = array<i64: 0, 100, 110, 210, 220>}}
  return
}

