// RUN: ascend-opt %s -t schedule-json | filecheck %s --match-full-lines --strict-whitespace

// The target prints the attributes ascend-modulo-schedule left (it never schedules).
// Keys exactly as DESIGN.md section 9, in that order; buffers = the loop's
// multi-bufferable allocations (the accumulator is not one).

//      CHECK:{
// CHECK-NEXT:  "functions": [
// CHECK-NEXT:    {
// CHECK-NEXT:      "name": "gemm",
// CHECK-NEXT:      "loops": [
// CHECK-NEXT:        {
// CHECK-NEXT:          "ii": 1792,
// CHECK-NEXT:          "solver_ii": 1792,
// CHECK-NEXT:          "mii": 1792,
// CHECK-NEXT:          "res_mii": {
// CHECK-NEXT:            "MTE2": 1230,
// CHECK-NEXT:            "M": 1792
// CHECK-NEXT:          },
// CHECK-NEXT:          "rec_mii": 1792,
// CHECK-NEXT:          "binding": "M",
// CHECK-NEXT:          "status": "optimal",
// CHECK-NEXT:          "unroll": 1,
// CHECK-NEXT:          "one_pass": false,
// CHECK-NEXT:          "tasks": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "op": "hivm.hir.nd2nz",
// CHECK-NEXT:              "pipe": "MTE2",
// CHECK-NEXT:              "latency": 846,
// CHECK-NEXT:              "ii": 656,
// CHECK-NEXT:              "stage": 0,
// CHECK-NEXT:              "start": 574
// CHECK-NEXT:            },
// CHECK-NEXT:            {
// CHECK-NEXT:              "op": "hivm.hir.nd2nz",
// CHECK-NEXT:              "pipe": "MTE2",
// CHECK-NEXT:              "latency": 764,
// CHECK-NEXT:              "ii": 574,
// CHECK-NEXT:              "stage": 0,
// CHECK-NEXT:              "start": 0
// CHECK-NEXT:            },
// CHECK-NEXT:            {
// CHECK-NEXT:              "op": "hivm.hir.mmadL1",
// CHECK-NEXT:              "pipe": "M",
// CHECK-NEXT:              "latency": 2286,
// CHECK-NEXT:              "ii": 1792,
// CHECK-NEXT:              "stage": 0,
// CHECK-NEXT:              "start": 1420
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "buffers": [
// CHECK-NEXT:            {
// CHECK-NEXT:              "name": "la",
// CHECK-NEXT:              "scope": "cbuf",
// CHECK-NEXT:              "bytes": 65536,
// CHECK-NEXT:              "versions": 1
// CHECK-NEXT:            },
// CHECK-NEXT:            {
// CHECK-NEXT:              "name": "lb",
// CHECK-NEXT:              "scope": "cbuf",
// CHECK-NEXT:              "bytes": 57344,
// CHECK-NEXT:              "versions": 2
// CHECK-NEXT:            }
// CHECK-NEXT:          ],
// CHECK-NEXT:          "drains": []
// CHECK-NEXT:        }
// CHECK-NEXT:      ]
// CHECK-NEXT:    }
// CHECK-NEXT:  ]
// CHECK-NEXT:}

module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  func.func @gemm(%a: memref<256x512xbf16, #hivm.address_space<gm>>, %b: memref<512x448xbf16, #hivm.address_space<gm>>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %c224 = arith.constant 224 : index
    %c256 = arith.constant 256 : index
    %la = memref.alloc() {ascend.buffer = #ascend.buffer<versions = 1>} : memref<256x128xbf16, #hivm.address_space<cbuf>>
    %lb = memref.alloc() {ascend.buffer = #ascend.buffer<versions = 2>} : memref<128x224xbf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<256x224xf32, #hivm.address_space<cc>>
    scf.for %k = %c0 to %c4 step %c1 {
      %k0 = arith.muli %k, %c128 : index
      %as = memref.subview %a[0, %k0] [256, 128] [1, 1] : memref<256x512xbf16, #hivm.address_space<gm>> to memref<256x128xbf16, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>
      %bs = memref.subview %b[%k0, 0] [128, 224] [1, 1] : memref<512x448xbf16, #hivm.address_space<gm>> to memref<128x224xbf16, strided<[448, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.nd2nz {ascend.task = #ascend.task<latency = 846, ii = 656, stage = 0, start = 574>} ins(%as : memref<256x128xbf16, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>) outs(%la : memref<256x128xbf16, #hivm.address_space<cbuf>>)
      hivm.hir.nd2nz {ascend.task = #ascend.task<latency = 764, ii = 574, stage = 0, start = 0>} ins(%bs : memref<128x224xbf16, strided<[448, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lb : memref<128x224xbf16, #hivm.address_space<cbuf>>)
      %first = arith.cmpi eq, %k, %c0 : index
      hivm.hir.mmadL1 {ascend.task = #ascend.task<latency = 2286, ii = 1792, stage = 0, start = 1420>} ins(%la, %lb, %first, %c256, %c128, %c224 : memref<256x128xbf16, #hivm.address_space<cbuf>>, memref<128x224xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<256x224xf32, #hivm.address_space<cc>>)
    } {ascend.loop = #ascend.loop<ii = 1792, mii = 1792, status = "optimal", res_mii = {MTE2 = 1230, M = 1792}, rec_mii = 1792, binding = "M">}
    return
  }
}
