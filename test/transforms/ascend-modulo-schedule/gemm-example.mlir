// The done-when of the scheduling issue, on examples/gemm.mlir (256x224x128 bf16 tiles,
// 4 K steps, num_stages = 2).
// RUN: ascend-opt %examples/gemm.mlir -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule -t schedule-json | filecheck %s
// RUN: ascend-opt %examples/gemm.mlir -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule | filecheck %s --check-prefix=IR
// RUN: ascend-opt %examples/gemm.mlir -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule -t schedule-svg > %t.svg
// RUN: %python -c "import sys, xml.dom.minidom as m; print(m.parse(sys.argv[1]).getElementsByTagName('text')[0].firstChild.data)" %t.svg | filecheck %s --check-prefix=SVG

// Per K step: nd2nz A 64 KiB (846, 656), nd2nz B 56 KiB (764, 574) on MTE2 = 1230;
// mmadL1 = MTE1 moves (488, 486) then the cube 2*256*224*128/8192 = 1792 -> (2286, 1792).
// MTE2 also idles 190 cycles a step while its set_flag to MTE1 waits for the last load to
// complete (its flag drain): 1230 + 190 = 1420 < 1792. The cube binds: II = MII = 1792. The accumulation into one L0C tile is an in-order
// M -> M dependence costing ii (1792), so it does not raise the bound.
// L1: the load issued first waits for the other load (ii) and then for the matmul to
// move it to L0 (488): 574 + 846 + 488 = 1908 > 1792 -> 2 versions; the other one is free
// again after 846 + 488 = 1334 <= 1792 -> 1 version. Fewest bytes: double the smaller B.

// CHECK:      "name": "gemm",
// CHECK:      "ii": 1792,
// CHECK-NEXT: "solver_ii": 1792,
// CHECK-NEXT: "mii": 1792,
// CHECK-NEXT: "res_mii": {
// CHECK-NEXT:   "MTE2": 1420,
// CHECK-NEXT:   "M": 1792
// CHECK-NEXT: },
// CHECK-NEXT: "rec_mii": 1792,
// CHECK-NEXT: "binding": "M",
// CHECK-NEXT: "status": "optimal",
// CHECK-NEXT: "unroll": 1,
// CHECK-NEXT: "one_pass": false,
// CHECK-NEXT: "tasks": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "op": "hivm.hir.nd2nz",
// CHECK-NEXT:     "pipe": "MTE2",
// CHECK-NEXT:     "latency": 846,
// CHECK-NEXT:     "ii": 656,
// CHECK:          "op": "hivm.hir.nd2nz",
// CHECK-NEXT:     "pipe": "MTE2",
// CHECK-NEXT:     "latency": 764,
// CHECK-NEXT:     "ii": 574,
// CHECK:          "op": "hivm.hir.mmadL1",
// CHECK-NEXT:     "pipe": "M",
// CHECK-NEXT:     "latency": 2286,
// CHECK-NEXT:     "ii": 1792,
// CHECK:      "buffers": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "la",
// CHECK-NEXT:     "scope": "cbuf",
// CHECK-NEXT:     "bytes": 65536,
// CHECK-NEXT:     "versions": 1
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "lb",
// CHECK-NEXT:     "scope": "cbuf",
// CHECK-NEXT:     "bytes": 57344,
// CHECK-NEXT:     "versions": 2
// CHECK-NEXT:   }
// CHECK-NEXT: ]

// SVG: loop gemm.k: II = 1792 (MII = 1792, binding M, optimal)

// IR: %la = memref.alloc() {ascend.buffer = #ascend.buffer<versions = 1>}
// IR: %lb = memref.alloc() {ascend.buffer = #ascend.buffer<versions = 2>}
// IR-NOT: %acc = memref.alloc() {ascend.versions
// IR: scf.for
// IR: hivm.hir.mmadL1 {ascend.task = #ascend.task<latency = 2286, ii = 1792, stage = {{[0-9]+}}, start = {{[0-9]+}}>}
// IR: } {ascend.num_stages = 2 : i64, ascend.loop = #ascend.loop<ii = 1792, mii = 1792, status = "optimal"
// The loop is one task of the function body: 4 iterations by the serial-loop formula.
// IR-SAME: ascend.task = #ascend.task<latency = {{[0-9]+}}, ii = 7168, stage = 0, start = {{[0-9]+}}>
// The MTE2 loads publish to the cube every iteration: their flag drain is reserved.
// IR-SAME: ascend.drains = #ascend.drains<(MTE2, {{[0-9]+}}, {{[0-9]+}})>}
// IR: hivm.hir.fixpipe {{{.*}}ascend.task = #ascend.task<latency = {{[0-9]+}}, ii = {{[0-9]+}}, stage = 0, start = {{[0-9]+}}>}
