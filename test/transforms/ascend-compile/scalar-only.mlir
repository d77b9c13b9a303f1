// ascend-compile refuses a function that reads and writes memory only with scalar
// memref.load/store, with no tile op and no memref in an NPU address space (it used to
// pass through unchanged), saying what the compiler takes; ascend-sim likewise.
// RUN: ascend-opt %s -p ascend-compile --split-input-file --verify-diagnostics
// RUN: not ascend-sim %s 2>&1 | filecheck %s --check-prefix=SIM

func.func @add(%a: memref<16xf32>, %b: memref<16xf32>, %c: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    // expected-error @+2 {{'memref.load' op @add has no tile op and no memref in an NPU address space: ascend-compile takes tile-level kernels}}
    // SIM: scalar-only.mlir:[[# @LINE + 1]]:5: error: 'memref.load' op @add has no tile op and no memref in an NPU address space
    %x = memref.load %a[%i] : memref<16xf32>
    %y = memref.load %b[%i] : memref<16xf32>
    %z = arith.addf %x, %y : f32
    memref.store %z, %c[%i] : memref<16xf32>
  }
  func.return
}

// -----

// A function with no memory access at all is left alone (nothing to refuse).
func.func @scalar(%x: i32) -> i32 {
  func.return %x : i32
}
