// ascend-lower-wide-reduce on partial tiles and columns (dav-c220): a row reduction of a
// runtime width becomes one repeat per 64 columns of its bound, each of runtime width
// min(max(cols - start, 0), 64); a column reduction of 16 rows a one-row copy and 15
// folds; a row broadcast into a partial tile a vbrc into one 32-byte block per row and
// cce.repeat_blocks; V barriers between dependent steps, one scratch at the top of UB.
// The sync check, the simulator (race-free at 5 rows x 100 columns, and at 0 columns)
// and the printed C see every step: -t cce prints no barrier the IR does not hold.
// RUN: ascend-opt %s -p 'ascend-lower-wide-reduce{chip=ascend910b}' | filecheck %s
// RUN: ascend-opt %s -p 'ascend-lower-wide-reduce{chip=ascend910b},ascend-verify-sync{chip=ascend910b}' | filecheck %s --check-prefix=VERIFIED
// RUN: ascend-opt %s -p 'ascend-lower-wide-reduce{chip=ascend910b}' | ascend-sim - --chip ascend910b --json --bind r=5 --bind c=100 | filecheck %s --check-prefix=SIM
// RUN: ascend-opt %s -p 'ascend-lower-wide-reduce{chip=ascend910b}' | ascend-sim - --chip ascend910b --json --bind r=5 --bind c=0 | filecheck %s --check-prefix=SIM
// RUN: ascend-opt %s -p 'ascend-lower-wide-reduce{chip=ascend910b}' -t cce | filecheck %s --check-prefix=C
// RUN: ascend-opt %s -p 'ascend-lower-wide-reduce{chip=ascend910b}' > %t.mlir
// RUN: %python -c "import sys; t = open(sys.argv[1]).read().split('\n'); i = [k for k, l in enumerate(t) if 'cce.repeat_blocks' in l][0] - 1; assert 'PIPE_V' in t[i]; print('\n'.join(t[:i] + t[i + 1:]))" %t.mlir > %t.mutant.mlir
// RUN: not ascend-sim %t.mutant.mlir --chip ascend910b --bind r=5 --bind c=100 2>&1 | filecheck %s --check-prefix=RACE
// RUN: not ascend-opt %s -t cce 2>&1 | filecheck %s --check-prefix=UNLOWERED
// rows bounded by 12: vbrcb's last repeat would pass the column's bound, refused located
// RUN: sed 's/%i16 = arith.constant 16 : index/%i16 = arith.constant 12 : index/' %s | not ascend-opt - -p 'ascend-lower-wide-reduce{chip=ascend910b}' 2>&1 | filecheck %s --check-prefix=TWELVE

// CHECK-LABEL: func.func @partial
// CHECK:         %[[BLOCKS:.*]] = hivm.hir.pointer_cast(%{{.*}}) : memref<16x8xf32, #hivm.address_space<ub>>
// CHECK:         %[[SCRATCH:.*]] = hivm.hir.pointer_cast(%{{.*}}) : memref<16x1xf32, #hivm.address_space<ub>>
// CHECK:         %[[W0:.*]] = arith.minsi %cols, %{{.*}} : index
// CHECK-NEXT:    %[[R0:.*]] = memref.subview %vu[0, 0] [%rows, %[[W0]]] [1, 1] : {{.*}} to memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>
// CHECK-NEXT:    hivm.hir.vreduce <max> ins(%[[R0]] : {{.*}}) outs(%vm : {{.*}}) reduce_dims = [1]
// CHECK:         arith.subi %cols
// CHECK:         %[[R1:.*]] = memref.subview %vu[0, 64] [%rows, %{{.*}}] [1, 1] : {{.*}} to memref<?x?xf32, strided<[256, 1], offset: 64>, #hivm.address_space<ub>>
// CHECK-NEXT:    hivm.hir.vreduce <max> ins(%[[R1]] : {{.*}}) outs(%{{.*}} : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>) reduce_dims = [1]
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_V>]
// CHECK-NEXT:    hivm.hir.vmax
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_V>]
// CHECK:         memref.subview %vu[0, 192]
// the column reduction: the first row's copy, then one barrier and fold per further row
// CHECK:         %[[ROW0:.*]] = memref.subview %u[0, 0] [1, 256] [1, 1]
// CHECK-NEXT:    hivm.hir.vreduce <sum> ins(%[[ROW0]] : {{.*}}) outs(%col : {{.*}}) reduce_dims = [0]
// CHECK-NEXT:    %[[ROW1:.*]] = memref.subview %u[1, 0] [1, 256] [1, 1]
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_V>]
// CHECK-NEXT:    hivm.hir.vadd ins(%col, %[[ROW1]] : {{.*}}) outs(%col : {{.*}})
// CHECK-COUNT-14: hivm.hir.vadd
// the broadcast: the blocks, a barrier, the copies; the kernel's own barrier follows
// CHECK:         %[[FILLED:.*]] = memref.subview %[[BLOCKS]][0, 0] [%rows, 8] [1, 1]
// CHECK-NEXT:    hivm.hir.vbrc ins(%vm : {{.*}}) outs(%[[FILLED]] : memref<?x8xf32, strided<[8, 1]>, #hivm.address_space<ub>>) broadcast_dims = [1]
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_V>]
// CHECK-NEXT:    cce.repeat_blocks %[[FILLED]], %vw
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_V>]
// CHECK-NEXT:    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
// VERIFIED: cce.repeat_blocks
// SIM: "races": [], "deadlock": false
// SIM-SAME: "ok": true
// C:     __aicore__ void partial(
// C-COUNT-24: pipe_barrier(PIPE_V);
// C-NOT: pipe_barrier(PIPE_V);
// C:     pipe_barrier(PIPE_ALL);
// RACE: error: {{.*}}race{{.*}}
// TWELVE: :{{[0-9]+}}:{{[0-9]+}}: error: {{.*}}hivm.hir.vbrc{{.*}}rows must be bounded by a multiple of 8 (bound (12, 1))
// UNLOWERED: error: {{.*}}a dav-c220 row reduction of up to 256 columns (more than one repeat) is not lowered


module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @partial(%x: memref<16x256xf32, #hivm.address_space<gm>>, %y: memref<16x256xf32, #hivm.address_space<gm>>, %s: memref<1x256xf32, #hivm.address_space<gm>>, %r: index, %c: index) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %c0 = arith.constant 0 : i64
    %c16384 = arith.constant 16384 : i64
    %c16448 = arith.constant 16448 : i64
    %c32768 = arith.constant 32768 : i64
    %i16 = arith.constant 16 : index
    %i256 = arith.constant 256 : index
    %rows = arith.minsi %r, %i16 : index
    %cols = arith.minsi %c, %i256 : index
    %u = hivm.hir.pointer_cast(%c0) : memref<16x256xf32, #hivm.address_space<ub>>
    %m = hivm.hir.pointer_cast(%c16384) : memref<16x1xf32, #hivm.address_space<ub>>
    %col = hivm.hir.pointer_cast(%c16448) : memref<1x256xf32, #hivm.address_space<ub>>
    %w = hivm.hir.pointer_cast(%c32768) : memref<16x256xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%x : memref<16x256xf32, #hivm.address_space<gm>>) outs(%u : memref<16x256xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    %vu = memref.subview %u[0, 0] [%rows, %cols] [1, 1] : memref<16x256xf32, #hivm.address_space<ub>> to memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>
    %vm = memref.subview %m[0, 0] [%rows, 1] [1, 1] : memref<16x1xf32, #hivm.address_space<ub>> to memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>
    hivm.hir.vreduce <max> ins(%vu : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>) outs(%vm : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>) reduce_dims = [1]
    hivm.hir.vreduce <sum> ins(%u : memref<16x256xf32, #hivm.address_space<ub>>) outs(%col : memref<1x256xf32, #hivm.address_space<ub>>) reduce_dims = [0]
    hivm.hir.pipe_barrier[<PIPE_V>]
    %vw = memref.subview %w[0, 0] [%rows, %cols] [1, 1] : memref<16x256xf32, #hivm.address_space<ub>> to memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>
    hivm.hir.vbrc ins(%vm : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>) outs(%vw : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>) broadcast_dims = [1]
    hivm.hir.pipe_barrier[<PIPE_V>]
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    %ys = memref.subview %y[0, 0] [%rows, %cols] [1, 1] : memref<16x256xf32, #hivm.address_space<gm>> to memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<gm>>
    hivm.hir.store ins(%vw : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>) outs(%ys : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<gm>>)
    hivm.hir.store ins(%col : memref<1x256xf32, #hivm.address_space<ub>>) outs(%s : memref<1x256xf32, #hivm.address_space<gm>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    return
  }
}
