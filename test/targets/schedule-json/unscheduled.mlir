// RUN: not ascend-opt %s -t schedule-json 2>&1 | filecheck %s
// RUN: not ascend-opt %s -t schedule-svg 2>&1 | filecheck %s --check-prefix=SVG

// CHECK: unscheduled.mlir:10:3: error: 'scf.for' op has no schedule (schedule-json prints what ascend-modulo-schedule computed: run it first
// SVG: error: 'scf.for' op has no schedule (schedule-svg prints
func.func @k(%u: memref<512xf32, #hivm.address_space<ub>>, %v: memref<512xf32, #hivm.address_space<ub>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    hivm.hir.vexp ins(%u : memref<512xf32, #hivm.address_space<ub>>) outs(%v : memref<512xf32, #hivm.address_space<ub>>)
  }
  return
}
