// The pure resource model (flag-drains=false) first, then the drain model on the loop as
// written (DRAIN, unroll=1), then the default, which may unroll the inner loop (UNROLL).
// RUN: ascend-opt %s -p 'ascend-estimate-latency,ascend-modulo-schedule{flag-drains=false}' | filecheck %s
// RUN: ascend-opt %s -p 'ascend-estimate-latency,ascend-modulo-schedule{flag-drains=false}' -t schedule-json | filecheck %s --check-prefix=JSON
// RUN: ascend-opt %s -p 'ascend-estimate-latency,ascend-modulo-schedule{unroll=1}' | filecheck %s --check-prefix=DRAIN
// RUN: ascend-opt %s -p ascend-estimate-latency,ascend-modulo-schedule 2>/dev/null | filecheck %s --check-prefix=UNROLL

// By default each inner step also pays the pipes' flag drains: the store's set_flag that
// frees v for vexp waits for the store to complete (198 - 18 = 180 idle MTE3 cycles), the
// load's set_flag to V likewise (111 - 21 = 90 on MTE2): MTE3 binds at 18 + 180 = 198,
// where u needs one version and v two (64 + 198 > 198).
// DRAIN: memref.alloc() {ascend.buffer = #ascend.buffer<versions = 1>} : memref<512xf32, #hivm.address_space<ub>>
// DRAIN: memref.alloc() {ascend.buffer = #ascend.buffer<versions = 2>} : memref<512xf32, #hivm.address_space<ub>>
// DRAIN: ascend.loop = #ascend.loop<ii = 198, mii = 198, status = "optimal", res_mii = {MTE2 = 111, MTE3 = 198, V = 64}, rec_mii = {{[0-9]+}}, binding = "MTE3">

// Unrolled 4 times, the model's copies share one set point per pipe pair: the two drains
// paid once per 4 steps, V binds again (4 x 64 = 256 per 4 steps, 64 per step against
// 198). The code of that schedule runs at 264 per 4 steps as replayed (the same loop as a
// kernel of 16 and 32 tiles ran 66 a tile), the II written, the solver's kept beside it.
// UNROLL: ascend.unroll = 4 : i64, ascend.loop = #ascend.loop<ii = 264, mii = 256, status = "feasible", res_mii = {MTE2 = 174, MTE3 = 252, V = 256}, rec_mii = {{[0-9]+}}, binding = "V">
// UNROLL-SAME: ascend.solver_ii = 256 : i64

// Rows of 8 x 2048 f32 in tiles of 512: the inner loop (load, exp, store) is scheduled
// first; the outer loop sees it as one task on MTE2+V+MTE3 with the serial-loop cost.
// Per inner step: load 2 KiB (111, 21) MTE2, vexp 512 elements (64, 64) V,
// store 2 KiB (198, 18) MTE3: V binds at 64 when the UB tiles have versions enough
// (u is busy from the load to the end of vexp: 111 + 64 > 2 * 64, so 3 versions; v from
// vexp to the end of the store: 64 + 198 > 4 * 64, so 5 versions).

// CHECK-LABEL: func.func @rows
// The scalar block query is straight-line code: scheduled at 0.
// CHECK: hivm.hir.get_block_idx {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 0, start = 0>}
// CHECK: memref.alloc() {ascend.buffer = #ascend.buffer<versions = 3>} : memref<512xf32, #hivm.address_space<ub>>
// CHECK: memref.alloc() {ascend.buffer = #ascend.buffer<versions = 5>} : memref<512xf32, #hivm.address_space<ub>>
// CHECK: scf.for %i
// CHECK: scf.for %j
// CHECK: hivm.hir.load {{.*}}stage = {{[0-9]+}}, start = {{[0-9]+}}>}
// CHECK: hivm.hir.vexp {ascend.task = #ascend.task<latency = 64, ii = 64, stage = {{[0-9]+}}, start = {{[0-9]+}}>}
// CHECK: hivm.hir.store {{.*}}stage = {{[0-9]+}}, start = {{[0-9]+}}>}
// Inner loop: V-bound; the loop as a task of 4 iterations: ii = 4 * 64.
// CHECK: } {ascend.num_stages = 8 : i64, ascend.loop = #ascend.loop<ii = 64, mii = 64, status = "optimal", res_mii = {MTE2 = 21, MTE3 = 18, V = 64}, rec_mii = {{[0-9]+}}, binding = "V">, ascend.task = #ascend.task<latency = {{[0-9]+}}, ii = 256, stage = {{[0-9]+}}, start = {{[0-9]+}}>}
// Outer loop: one task that keeps MTE2, V and MTE3 busy for 256 cycles each; the UB
// tiles are reused by every row without being rewritten in full by one op, so rows
// follow each other (a recurrence through u and v of the inner loop's whole latency).
// CHECK: } {ascend.loop = #ascend.loop<ii = [[OUTER:[0-9]+]], mii = [[OUTER]], status = "optimal", res_mii = {MTE2 = 256, MTE3 = 256, V = 256}, rec_mii = [[OUTER]], binding = "recurrence">

// JSON: "name": "rows",
// JSON: "loops": [
// Pre-order: the outer loop first, its task is the inner loop.
// JSON:   "tasks": [
// JSON-NEXT:   {
// JSON-NEXT:     "op": "scf.for",
// JSON-NEXT:     "pipe": "MTE2+V+MTE3",
// JSON-NEXT:     "latency": {{[0-9]+}},
// JSON-NEXT:     "ii": 256,
// JSON:      "buffers": []
// JSON:      "ii": 64,
// JSON:      "binding": "V",
// JSON:      "op": "hivm.hir.load",
// JSON-NEXT: "pipe": "MTE2",
// JSON:      "op": "hivm.hir.vexp",
// JSON-NEXT: "pipe": "V",
// JSON:      "op": "hivm.hir.store",
// JSON-NEXT: "pipe": "MTE3",
// JSON:      "buffers": [
// JSON-NEXT:   {
// JSON-NEXT:     "name": "u",
// JSON-NEXT:     "scope": "ub",
// JSON-NEXT:     "bytes": 2048,
func.func @rows(%x: memref<8x2048xf32, #hivm.address_space<gm>>, %y: memref<8x2048xf32, #hivm.address_space<gm>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c512 = arith.constant 512 : index
  %blk = hivm.hir.get_block_idx -> i64
  %u = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
  %v = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %off = arith.muli %j, %c512 : index
      %xs = memref.subview %x[%i, %off] [1, 512] [1, 1] : memref<8x2048xf32, #hivm.address_space<gm>> to memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %ys = memref.subview %y[%i, %off] [1, 512] [1, 1] : memref<8x2048xf32, #hivm.address_space<gm>> to memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs : memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%u : memref<512xf32, #hivm.address_space<ub>>)
      hivm.hir.vexp ins(%u : memref<512xf32, #hivm.address_space<ub>>) outs(%v : memref<512xf32, #hivm.address_space<ub>>)
      hivm.hir.store ins(%v : memref<512xf32, #hivm.address_space<ub>>) outs(%ys : memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
    } {ascend.num_stages = 8 : i64}
  }
  return
}
