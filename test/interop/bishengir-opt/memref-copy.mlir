// REQUIRES: bishengir
// memref.copy's custom syntax against the real bishengir-opt 1.2.0 (the peer's HIVM
// tests write it so: ops.mlir's convert_layout case): our custom and generic output parses there and its output parses back here, and both print the same memref.copy
// lines (SSA names normalised, since each tool picks its own).
// RUN: ascend-opt %s | %bishengir_opt | ascend-opt | filecheck %s
// RUN: ascend-opt %s --print-op-generic | %bishengir_opt --mlir-print-op-generic | ascend-opt | filecheck %s
// RUN: %bishengir_opt %s | grep -E "memref\.copy" | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.bishengir
// RUN: ascend-opt %s | grep -E "memref\.copy" | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.ascend
// RUN: diff %t.bishengir %t.ascend
// RUN: %bishengir_opt %s --mlir-print-op-generic | grep -E "\"memref\.copy" | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.bishengir-generic
// RUN: ascend-opt %s --print-op-generic | grep -E "\"memref\.copy" | sed -E 's/%%[A-Za-z0-9_]+/%%v/g' > %t.ascend-generic
// RUN: diff %t.bishengir-generic %t.ascend-generic
// The verifier's two messages are bishengir-opt's:
// RUN: not %bishengir_opt %S/../../dialects/memref/invalid.mlir --split-input-file 2>&1 | filecheck %s --check-prefix=UPSTREAM
// UPSTREAM: error: 'memref.copy' op requires the same shape for all operands
// UPSTREAM: error: 'memref.copy' op requires the same shape for all operands
// UPSTREAM: error: 'memref.copy' op requires the same element type for all operands

// CHECK-LABEL: func.func @copies
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<128x128xf16, strided<[?, ?], offset: ?>> to memref<128x128xf16>
// CHECK: memref.copy %{{.*}}, %{{.*}} {note = 1 : i32} : memref<*xf16> to memref<128x128xf16>
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<128x128xf16> to memref<?x128xf16, #hivm.address_space<gm>>
func.func @copies(%arg: memref<128x128xf16, strided<[?, ?], offset: ?>>, %u: memref<*xf16>,
                  %d: memref<?x128xf16, #hivm.address_space<gm>>) {
  %alloc = memref.alloc() : memref<128x128xf16>
  memref.copy %arg, %alloc : memref<128x128xf16, strided<[?, ?], offset: ?>> to memref<128x128xf16>
  memref.copy %u, %alloc {note = 1 : i32} : memref<*xf16> to memref<128x128xf16>
  "memref.copy"(%alloc, %d) : (memref<128x128xf16>, memref<?x128xf16, #hivm.address_space<gm>>) -> ()
  return
}
