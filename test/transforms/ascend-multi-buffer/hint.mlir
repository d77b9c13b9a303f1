// The route where bishengir plans memory itself: multi-buffer hints as bishengir spells
// them, on unplanned allocations with more than one version; nothing else changes.
// RUN: ascend-opt %s -p 'ascend-multi-buffer{hint=true}' | filecheck %s
// RUN: ascend-opt %examples/gemm.mlir -p 'convert-tile-to-hivm,ascend-modulo-schedule,ascend-multi-buffer{hint=true}' | filecheck %s --check-prefix=GEMM

// CHECK:      %u = memref.alloc() {ascend.buffer = #ascend.buffer<versions = 3>} : memref<512xf32, #hivm.address_space<ub>>
// CHECK-NEXT: annotation.mark %u {hivm.multi_buffer = 3 : i32} : memref<512xf32, #hivm.address_space<ub>>
// CHECK-NEXT: %v = memref.alloc() {ascend.buffer = #ascend.buffer<versions = 1>}
// CHECK-NOT:  annotation.mark
// GEMM: %lb = memref.alloc() {ascend.buffer = #ascend.buffer<versions = 2>}
// GEMM-NEXT: annotation.mark %lb {hivm.multi_buffer = 2 : i32}
func.func @k(%x: memref<512xf32, #hivm.address_space<gm>>) {
  %u = memref.alloc() {ascend.buffer = #ascend.buffer<versions = 3>} : memref<512xf32, #hivm.address_space<ub>>
  %v = memref.alloc() {ascend.buffer = #ascend.buffer<versions = 1>} : memref<512xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%x : memref<512xf32, #hivm.address_space<gm>>) outs(%u : memref<512xf32, #hivm.address_space<ub>>)
  hivm.hir.load ins(%x : memref<512xf32, #hivm.address_space<gm>>) outs(%v : memref<512xf32, #hivm.address_space<ub>>)
  return
}
