// memref.copy in MLIR's custom syntax (xDSL 0.75 reads only the generic form; our
// context registers dialects/memref.py's copy in its place): printed as mlir-opt 22
// prints it, the generic form read back, attributes kept, unranked and dynamic shapes
// compatible with static ones (MLIR's SameOperandsShape).
// RUN: ascend-opt %s | filecheck %s
// RUN: ascend-opt %s | ascend-opt | filecheck %s
// RUN: ascend-opt %s --print-op-generic | ascend-opt | filecheck %s
// RUN: ascend-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @copies
// CHECK-NEXT: %[[B:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK-NEXT: memref.copy %[[A:.*]], %[[B]] : memref<4x8xf32, strided<[?, ?], offset: ?>> to memref<4x8xf32>
// CHECK-NEXT: memref.copy %{{.*}}, %[[B]] {note = 1 : i32} : memref<*xf32> to memref<4x8xf32>
// CHECK-NEXT: memref.copy %[[B]], %{{.*}} : memref<4x8xf32> to memref<?x8xf32, #hivm.address_space<gm>>
// CHECK-NEXT: memref.copy %[[B]], %[[A]] : memref<4x8xf32> to memref<4x8xf32, strided<[?, ?], offset: ?>>
// GENERIC: "memref.copy"(%{{.*}}, %{{.*}}) : (memref<4x8xf32, strided<[?, ?], offset: ?>>, memref<4x8xf32>) -> ()
// GENERIC: "memref.copy"(%{{.*}}, %{{.*}}) {note = 1 : i32} : (memref<*xf32>, memref<4x8xf32>) -> ()
func.func @copies(%a: memref<4x8xf32, strided<[?, ?], offset: ?>>, %u: memref<*xf32>,
                  %d: memref<?x8xf32, #hivm.address_space<gm>>) {
  %b = memref.alloc() : memref<4x8xf32>
  memref.copy %a, %b : memref<4x8xf32, strided<[?, ?], offset: ?>> to memref<4x8xf32>
  memref.copy %u, %b {note = 1 : i32} : memref<*xf32> to memref<4x8xf32>
  memref.copy %b, %d : memref<4x8xf32> to memref<?x8xf32, #hivm.address_space<gm>>
  "memref.copy"(%b, %a) : (memref<4x8xf32>, memref<4x8xf32, strided<[?, ?], offset: ?>>) -> ()
  return
}
