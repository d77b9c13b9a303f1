// ascend-lower-wide-reduce: on the 910B (dav-c220) a row reduction wider than one 256-byte
// repeat becomes its steps in IR: the first repeat into dst, each further repeat into a
// scratch row at the top of UB and folded into dst, with pipe_barrier[<PIPE_V>] between
// dependent steps (the 910B does not order V). The sync checker and the simulator then
// see every step: the lowered kernel verifies and runs race-free, equal to the unlowered
// one (the reference of the simulator's own semantics); with a step's barrier deleted,
// the simulator reports the race on the scratch. On the 950 nothing changes.
// RUN: ascend-opt %s -p 'ascend-lower-wide-reduce{chip=ascend910b}' | filecheck %s
// RUN: ascend-opt %s -p 'ascend-lower-wide-reduce{chip=ascend910b},ascend-verify-sync{chip=ascend910b}' | filecheck %s --check-prefix=VERIFIED
// RUN: ascend-opt %s -p 'ascend-lower-wide-reduce{chip=ascend950}' | filecheck %s --check-prefix=A5
// RUN: ascend-opt %s -p 'ascend-lower-wide-reduce{chip=ascend910b}' | ascend-sim - --chip ascend910b --json | filecheck %s --check-prefix=SIM
// RUN: ascend-opt %s -p 'ascend-lower-wide-reduce{chip=ascend910b}' > %t.mlir
// RUN: %python -c "import sys; t = open(sys.argv[1]).read().split('\n'); i = [k for k, l in enumerate(t) if 'pipe_barrier[<PIPE_V>]' in l][1]; print('\n'.join(t[:i] + t[i + 1:]))" %t.mlir > %t.mutant.mlir
// RUN: not ascend-sim %t.mutant.mlir --chip ascend910b 2>&1 | filecheck %s --check-prefix=RACE

// CHECK-LABEL: func.func @rows
// CHECK-NEXT:    %[[OFF:.*]] = arith.constant 196544 : i64
// CHECK-NEXT:    %[[SCRATCH:.*]] = hivm.hir.pointer_cast(%[[OFF]]) : memref<16x1xf32, #hivm.address_space<ub>>
// CHECK:         %[[R0:.*]] = memref.subview %u[0, 0] [16, 64] [1, 1] : memref<16x256xf32, #hivm.address_space<ub>> to memref<16x64xf32, strided<[256, 1]>, #hivm.address_space<ub>>
// CHECK-NEXT:    hivm.hir.vreduce <sum> ins(%[[R0]] : {{.*}}) outs(%m : {{.*}}) reduce_dims = [1]
// CHECK-NEXT:    %[[R1:.*]] = memref.subview %u[0, 64] [16, 64] [1, 1] : {{.*}} to memref<16x64xf32, strided<[256, 1], offset: 64>, #hivm.address_space<ub>>
// CHECK-NEXT:    hivm.hir.vreduce <sum> ins(%[[R1]] : {{.*}}) outs(%[[SCRATCH]] : {{.*}}) reduce_dims = [1]
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_V>]
// CHECK-NEXT:    hivm.hir.vadd ins(%m, %[[SCRATCH]] : {{.*}}) outs(%m : {{.*}})
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_V>]
// CHECK-NEXT:    %[[R2:.*]] = memref.subview %u[0, 128] [16, 64] [1, 1]
// CHECK-NEXT:    hivm.hir.vreduce <sum> ins(%[[R2]] : {{.*}}) outs(%[[SCRATCH]] : {{.*}})
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_V>]
// CHECK-NEXT:    hivm.hir.vadd ins(%m, %[[SCRATCH]] : {{.*}}) outs(%m : {{.*}})
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_V>]
// CHECK-NEXT:    %[[R3:.*]] = memref.subview %u[0, 192] [16, 64] [1, 1]
// CHECK-NEXT:    hivm.hir.vreduce <sum> ins(%[[R3]] : {{.*}}) outs(%[[SCRATCH]] : {{.*}})
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_V>]
// CHECK-NEXT:    hivm.hir.vadd ins(%m, %[[SCRATCH]] : {{.*}}) outs(%m : {{.*}})
// the last step is followed by the next reduction, which rewrites the scratch: a barrier
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_V>]
// the 8 rows of the second reduction use the scratch's first 8 rows
// CHECK:         %[[HALF:.*]] = memref.subview %[[SCRATCH]][0, 0] [8, 1] [1, 1] : memref<16x1xf32, #hivm.address_space<ub>> to memref<8x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>
// CHECK:         hivm.hir.vreduce <max> ins({{.*}}) outs(%[[HALF]] : {{.*}})
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_V>]
// CHECK-NEXT:    hivm.hir.vmax ins(%n, %[[HALF]] : {{.*}}) outs(%n : {{.*}})
// the kernel's own barrier follows: no second one
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_V>]
// CHECK-NEXT:    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
// CHECK-NOT:     hivm.hir.vreduce
// VERIFIED: hivm.hir.vmax
// A5:       hivm.hir.vreduce <sum> ins(%u : memref<16x256xf32, #hivm.address_space<ub>>) outs(%m : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
// A5-NOT:   pointer_cast
// SIM: "races": [], "deadlock": false
// SIM-SAME: "ok": true
// RACE: error: {{.*}}race{{.*}}

func.func @rows(%x: memref<16x256xf32, #hivm.address_space<gm>>, %y: memref<16x1xf32, #hivm.address_space<gm>>, %z: memref<8x1xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
  %c0 = arith.constant 0 : i64
  %c16384 = arith.constant 16384 : i64
  %c16448 = arith.constant 16448 : i64
  %u = hivm.hir.pointer_cast(%c0) : memref<16x256xf32, #hivm.address_space<ub>>
  %m = hivm.hir.pointer_cast(%c16384) : memref<16x1xf32, #hivm.address_space<ub>>
  %n = hivm.hir.pointer_cast(%c16448) : memref<8x1xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%x : memref<16x256xf32, #hivm.address_space<gm>>) outs(%u : memref<16x256xf32, #hivm.address_space<ub>>)
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.vreduce <sum> ins(%u : memref<16x256xf32, #hivm.address_space<ub>>) outs(%m : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
  %top = memref.subview %u[0, 0] [8, 128] [1, 1] : memref<16x256xf32, #hivm.address_space<ub>> to memref<8x128xf32, strided<[256, 1]>, #hivm.address_space<ub>>
  hivm.hir.vreduce <max> ins(%top : memref<8x128xf32, strided<[256, 1]>, #hivm.address_space<ub>>) outs(%n : memref<8x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
  hivm.hir.pipe_barrier[<PIPE_V>]
  hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.store ins(%m : memref<16x1xf32, #hivm.address_space<ub>>) outs(%y : memref<16x1xf32, #hivm.address_space<gm>>)
  hivm.hir.store ins(%n : memref<8x1xf32, #hivm.address_space<ub>>) outs(%z : memref<8x1xf32, #hivm.address_space<gm>>)
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  return
}
