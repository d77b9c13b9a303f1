// REQUIRES: mlir-opt
// memref.copy's custom syntax against upstream mlir-opt 22: our custom and generic output
// parses there and its output parses back here, and both print the same memref.copy
// lines (SSA names normalised, since each tool picks its own).
// RUN: ascend-opt %s | %mlir_opt | ascend-opt | filecheck %s
// RUN: ascend-opt %s --print-op-generic | %mlir_opt --mlir-print-op-generic | ascend-opt | filecheck %s
// RUN: %mlir_opt %s | grep -E "memref\.copy" | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.mlir-opt
// RUN: ascend-opt %s | grep -E "memref\.copy" | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.ascend
// RUN: diff %t.mlir-opt %t.ascend
// RUN: %mlir_opt %s --mlir-print-op-generic | grep -E "\"memref\.copy" | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.mlir-opt-generic
// RUN: ascend-opt %s --print-op-generic | grep -E "\"memref\.copy" | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.ascend-generic
// RUN: diff %t.mlir-opt-generic %t.ascend-generic
// The verifier's two messages are mlir-opt's:
// RUN: not %mlir_opt %S/../../dialects/memref/invalid.mlir --split-input-file 2>&1 | filecheck %s --check-prefix=UPSTREAM
// UPSTREAM: error: 'memref.copy' op requires the same shape for all operands
// UPSTREAM: error: 'memref.copy' op requires the same shape for all operands
// UPSTREAM: error: 'memref.copy' op requires the same element type for all operands

// CHECK-LABEL: func.func @copies
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<128x128xf16, strided<[?, ?], offset: ?>> to memref<128x128xf16>
// CHECK: memref.copy %{{.*}}, %{{.*}} {note = 1 : i32} : memref<*xf16> to memref<128x128xf16>
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<128x128xf16> to memref<?x128xf16>
func.func @copies(%arg: memref<128x128xf16, strided<[?, ?], offset: ?>>, %u: memref<*xf16>,
                  %d: memref<?x128xf16>) {
  %alloc = memref.alloc() : memref<128x128xf16>
  memref.copy %arg, %alloc : memref<128x128xf16, strided<[?, ?], offset: ?>> to memref<128x128xf16>
  memref.copy %u, %alloc {note = 1 : i32} : memref<*xf16> to memref<128x128xf16>
  "memref.copy"(%alloc, %d) : (memref<128x128xf16>, memref<?x128xf16>) -> ()
  return
}
