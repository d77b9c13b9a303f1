// The pure resource model first (flag-drains=false), then the default one.
// RUN: ascend-opt %s -p 'convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule{flag-drains=false}' | filecheck %s
// RUN: ascend-opt %s -p 'convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule{flag-drains=false}' -t schedule-json | filecheck %s --check-prefix=JSON
// RUN: ascend-opt %s -p 'convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule{num-stages=2 flag-drains=false}' | filecheck %s --check-prefix=TWO
// RUN: ascend-opt %s -p convert-tile-to-hivm,ascend-estimate-latency,ascend-modulo-schedule | filecheck %s --check-prefix=DRAIN

// A small-K gemm tile, 128x128x32 bf16, K loop of 8 steps: per step the cube needs
// 2*128*128*32/8192 = 128 cycles but MTE2 needs 82 + 82 = 164 to bring the A and B tiles
// (8 KiB each, GM -> L1): the loop is MTE2-bound at II = 164.
// A tile of L1 is busy from its nd2nz (272 cycles) until the matmul's MTE1 moves (72)
// are done, and the other load sits between them on MTE2 (82): 82 + 272 + 72 = 426 cycles
// > 2 * 164, so both L1 tiles need 3 versions at II = 164.

// CHECK: memref.alloc() {ascend.buffer = #ascend.buffer<versions = 3>} : memref<128x32xbf16, #hivm.address_space<cbuf>>
// CHECK: memref.alloc() {ascend.buffer = #ascend.buffer<versions = 3>} : memref<32x128xbf16, #hivm.address_space<cbuf>>
// CHECK: scf.for
// CHECK: hivm.hir.nd2nz {{{.*}}ascend.task = #ascend.task<latency = 272, ii = 82, stage = {{[0-9]+}}, start = {{[0-9]+}}>}
// CHECK: hivm.hir.nd2nz {{{.*}}ascend.task = #ascend.task<latency = 272, ii = 82, stage = {{[0-9]+}}, start = {{[0-9]+}}>}
// CHECK: hivm.hir.mmadL1 {ascend.task = #ascend.task<latency = 206, ii = 128, stage = {{[0-9]+}}, start = {{[0-9]+}}>}
// CHECK: } {ascend.num_stages = 3 : i64, ascend.loop = #ascend.loop<ii = 164, mii = 164, status = "optimal", res_mii = {MTE2 = 164, M = 128}, rec_mii = 128, binding = "MTE2">

// JSON: "ii": 164,
// JSON-NEXT: "solver_ii": 164,
// JSON-NEXT: "mii": 164,
// JSON-NEXT: "res_mii": {
// JSON-NEXT:   "MTE2": 164,
// JSON-NEXT:   "M": 128
// JSON-NEXT: },
// JSON-NEXT: "rec_mii": 128,
// JSON-NEXT: "binding": "MTE2",
// JSON-NEXT: "status": "optimal",
// JSON-NEXT: "unroll": 1,
// JSON-NEXT: "one_pass": false,
// JSON:      "buffers": [
// JSON-NEXT:   {
// JSON-NEXT:     "name": "la",
// JSON-NEXT:     "scope": "cbuf",
// JSON-NEXT:     "bytes": 8192,
// JSON-NEXT:     "versions": 3
// JSON-NEXT:   },
// JSON-NEXT:   {
// JSON-NEXT:     "name": "lb",
// JSON-NEXT:     "scope": "cbuf",
// JSON-NEXT:     "bytes": 8192,
// JSON-NEXT:     "versions": 3
// JSON-NEXT:   }
// JSON-NEXT: ]

// With only 2 versions allowed the L1 lifetimes bound the loop: the recurrence
// nd2nz -> mmadL1 -> (next-but-one) nd2nz needs (272 + 72) / 2 = 172 > 164 cycles per
// iteration, and with the other load in between the best II is (82 + 272 + 72) / 2 = 213.
// TWO: } {ascend.num_stages = 3 : i64, ascend.loop = #ascend.loop<ii = 213, mii = {{[0-9]+}}, status = "optimal", res_mii = {MTE2 = 164, M = 128}, rec_mii = 172, binding = "recurrence">

// By default the scheduler also reserves MTE2's flag drain: each step MTE2 tells MTE1
// that the tiles are in L1 with a set_flag that waits for the last load to complete
// (272 - 82 = 190 cycles in which MTE2 issues nothing): 164 + 190 = 354 per step. At that
// II the A tile needs a second version (82 + 272 + 72 = 426 > 354), B does not
// (272 + 72 = 344 <= 354).
// DRAIN: memref.alloc() {ascend.buffer = #ascend.buffer<versions = 2>} : memref<128x32xbf16, #hivm.address_space<cbuf>>
// DRAIN: memref.alloc() {ascend.buffer = #ascend.buffer<versions = 1>} : memref<32x128xbf16, #hivm.address_space<cbuf>>
// DRAIN: ascend.loop = #ascend.loop<ii = 354, mii = 354, status = "optimal", res_mii = {MTE2 = 354, M = 128}, rec_mii = 128, binding = "MTE2">

module {
  func.func @gemm_small(%a: memref<128x256xbf16, #hivm.address_space<gm>>,
                        %b: memref<256x128xbf16, #hivm.address_space<gm>>,
                        %c: memref<128x128xf32, #hivm.address_space<gm>>)
      attributes {tile.kernel, tile.grid = 1 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %la = memref.alloc() : memref<128x32xbf16, #hivm.address_space<cbuf>>
    %lb = memref.alloc() : memref<32x128xbf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<128x128xf32, #hivm.address_space<cc>>
    scf.for %k = %c0 to %c8 step %c1 {
      %k0 = arith.muli %k, %c32 : index
      %as = memref.subview %a[0, %k0] [128, 32] [1, 1] : memref<128x256xbf16, #hivm.address_space<gm>> to memref<128x32xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      %bs = memref.subview %b[%k0, 0] [32, 128] [1, 1] : memref<256x128xbf16, #hivm.address_space<gm>> to memref<32x128xbf16, strided<[128, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%as : memref<128x32xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%la : memref<128x32xbf16, #hivm.address_space<cbuf>>)
      tile.copy ins(%bs : memref<32x128xbf16, strided<[128, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lb : memref<32x128xbf16, #hivm.address_space<cbuf>>)
      %first = arith.cmpi eq, %k, %c0 : index
      tile.matmul ins(%la, %lb : memref<128x32xbf16, #hivm.address_space<cbuf>>, memref<32x128xbf16, #hivm.address_space<cbuf>>) outs(%acc : memref<128x128xf32, #hivm.address_space<cc>>) init(%first : i1)
    } {tile.num_stages = 3 : i64}
    tile.copy ins(%acc : memref<128x128xf32, #hivm.address_space<cc>>) outs(%c : memref<128x128xf32, #hivm.address_space<gm>>)
    return
  }
}
