// The typed schedule round-trips in custom and generic form, keys in any order on input,
// printed in one canonical order (res_mii by pipe order).
// RUN: %ROUNDTRIP
// RUN: %GENERIC_ROUNDTRIP

// CHECK: memref.alloc() {ascend.buffer = #ascend.buffer<versions = 2>}
// CHECK: scf.for
// CHECK: hivm.hir.vexp {ascend.task = #ascend.task<latency = 150, ii = 150, stage = 1, start = 300>}
// CHECK: hivm.hir.vabs {ascend.task = #ascend.task<latency = 20, ii = 10>}
// CHECK: } {ascend.loop = #ascend.loop<ii = 200, mii = 164, status = "feasible", res_mii = {MTE2 = 150, MTE3 = 14, V = 150}, rec_mii = 0, binding = "MTE2">, ascend.task = #ascend.task<latency = 1700, ii = 1600, stage = 0, start = 0>, ascend.drains = #ascend.drains<(MTE2, 150, 50), (MTE3, 410, 186)>}
func.func @k() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %u = memref.alloc() {ascend.buffer = #ascend.buffer<versions = 2>} : memref<512xf32, #hivm.address_space<ub>>
  %v = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %c8 step %c1 {
    hivm.hir.vexp {ascend.task = #ascend.task<start = 300, stage = 1, ii = 150, latency = 150>} ins(%u : memref<512xf32, #hivm.address_space<ub>>) outs(%v : memref<512xf32, #hivm.address_space<ub>>)
    hivm.hir.vabs {ascend.task = #ascend.task<latency = 20, ii = 10>} ins(%v : memref<512xf32, #hivm.address_space<ub>>) outs(%u : memref<512xf32, #hivm.address_space<ub>>)
  } {ascend.loop = #ascend.loop<binding = "MTE2", status = "feasible", ii = 200, mii = 164, res_mii = {V = 150, MTE3 = 14, MTE2 = 150}, rec_mii = 0>, ascend.task = #ascend.task<latency = 1700, ii = 1600, stage = 0, start = 0>, ascend.drains = #ascend.drains<(MTE2, 150, 50), (MTE3, 410, 186)>}
  return
}
