// RUN: ascend-opt %s -t schedule-svg | filecheck %s
// RUN: ascend-opt %s -t schedule-svg > %t.svg && %python -c "import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); print(d.documentElement.tagName)" %t.svg | filecheck %s --check-prefix=XML

// One steady-state window of II = 200 cycles: a row per pipe (in data-flow order), each task
// at start mod II for ii cycles, coloured by stage; the II marked at the window's end.
// XML: svg
// CHECK: <svg xmlns="http://www.w3.org/2000/svg"
// CHECK: loop k.i: II = 200 (MII = 164, binding MTE2, feasible)
// CHECK: <text class="pipe" {{.*}}>MTE2</text>
// CHECK: <text class="pipe" {{.*}}>V</text>
// CHECK: <text class="pipe" {{.*}}>MTE3</text>
// The load: start 0, ii 150 -> 0..540 px of 720 (stage 0 colour)
// CHECK: <rect class="task" x="70" y="{{[0-9.]+}}" width="540" height="22" fill="#4e79a7"><title>hivm.hir.load start 0 stage 0 latency 300 ii 150</title></rect>
// The vector op: start 300 = stage 1, offset 100, ii 150 wraps: 100..200 then 0..50
// CHECK: <rect class="task" x="430" y="{{[0-9.]+}}" width="360" height="22" fill="#f28e2b"><title>hivm.hir.vexp start 300
// CHECK: <rect class="task" x="70" y="{{[0-9.]+}}" width="180" height="22" fill="#f28e2b"><title>hivm.hir.vexp start 300
// CHECK: <rect class="task" x="{{[0-9.]+}}" y="{{[0-9.]+}}" width="{{[0-9.]+}}" height="22" fill="#59a14f"><title>hivm.hir.store start 450 stage 2
// CHECK: <line class="ii" x1="790"
// CHECK: >II = 200</text>
// CHECK: stage 0</text>
// CHECK: stage 1</text>
// CHECK: stage 2</text>
// CHECK: </svg>
func.func @k(%x: memref<4096xf32, #hivm.address_space<gm>>, %y: memref<4096xf32, #hivm.address_space<gm>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c512 = arith.constant 512 : index
  %u = memref.alloc() {ascend.buffer = #ascend.buffer<versions = 2>} : memref<512xf32, #hivm.address_space<ub>>
  %v = memref.alloc() {ascend.buffer = #ascend.buffer<versions = 2>} : memref<512xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %c8 step %c1 {
    %off = arith.muli %i, %c512 : index
    %xs = memref.subview %x[%off] [512] [1] : memref<4096xf32, #hivm.address_space<gm>> to memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    %ys = memref.subview %y[%off] [512] [1] : memref<4096xf32, #hivm.address_space<gm>> to memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.load ins(%xs : memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%u : memref<512xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 300, ii = 150, stage = 0, start = 0>}
    hivm.hir.vexp {ascend.task = #ascend.task<latency = 150, ii = 150, stage = 1, start = 300>} ins(%u : memref<512xf32, #hivm.address_space<ub>>) outs(%v : memref<512xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%v : memref<512xf32, #hivm.address_space<ub>>) outs(%ys : memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) {ascend.task = #ascend.task<latency = 100, ii = 14, stage = 2, start = 450>}
  } {ascend.loop = #ascend.loop<ii = 200, mii = 164, status = "feasible", res_mii = {MTE2 = 150, V = 150, MTE3 = 14}, rec_mii = 0, binding = "MTE2">}
  return
}
