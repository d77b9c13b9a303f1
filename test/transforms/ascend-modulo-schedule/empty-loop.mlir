// RUN: ascend-opt %s -p ascend-modulo-schedule | filecheck %s
// RUN: ascend-opt %s -p ascend-modulo-schedule -t schedule-svg | filecheck %s --check-prefix=SVG

// A loop with only index arithmetic has no pipe work: II 1, nothing to solve, and it still
// carries a schedule so the targets can report it.
// CHECK: } {ascend.loop = #ascend.loop<ii = 1, mii = 1, status = "optimal", res_mii = {}, rec_mii = 0, binding = "none">, ascend.task = #ascend.task<latency = 4, ii = 4
// An in-place vexp: read-modify-write on the in-order V pipe, II = its ii (2).
// CHECK: } {ascend.loop = #ascend.loop<ii = 2, mii = 2, status = "optimal"
// SVG: loop e.i: II = 1 (MII = 1, binding none, optimal)
// SVG: loop e.j: II = 2 (MII = 2, binding V, optimal)
// SVG: </svg>
func.func @e(%m: memref<16xf32, #hivm.address_space<ub>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %x = arith.addi %i, %c1 : index
  }
  scf.for %j = %c0 to %c4 step %c1 {
    hivm.hir.vexp ins(%m : memref<16xf32, #hivm.address_space<ub>>) outs(%m : memref<16xf32, #hivm.address_space<ub>>)
  }
  return
}
