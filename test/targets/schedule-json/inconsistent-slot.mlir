// The printer checks what no single attribute can: a task's stage must be start // II.
// RUN: not ascend-opt %s -t schedule-json 2>&1 | filecheck %s
// CHECK: inconsistent-slot.mlir:11:5: error: 'hivm.hir.vexp' op has stage 0 but start 300 lies in stage 1 of II 200
func.func @k() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %u = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
  %v = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %c8 step %c1 {
    hivm.hir.vexp {ascend.task = #ascend.task<latency = 150, ii = 150, stage = 0, start = 300>} ins(%u : memref<512xf32, #hivm.address_space<ub>>) outs(%v : memref<512xf32, #hivm.address_space<ub>>)
  } {ascend.loop = #ascend.loop<ii = 200, mii = 150, status = "optimal", res_mii = {V = 150}, rec_mii = 0, binding = "V">}
  return
}
