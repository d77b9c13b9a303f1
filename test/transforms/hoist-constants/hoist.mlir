// Every constant moves to the function entry, one per (value, type), in first-seen
// order; uses inside loops and branches refer to the hoisted one.
// RUN: ascend-opt %s -p hoist-constants --split-input-file | filecheck %s

// CHECK:      func.func @k(%{{.*}}: i1) {
// CHECK-NEXT:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:   %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:   %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:   %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT:   %[[C16I:.*]] = arith.constant 16 : i32
// CHECK-NEXT:   %[[U:.*]] = memref.alloc()
// CHECK-NEXT:   scf.for %[[I:.*]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:     %{{.*}} = arith.muli %[[I]], %[[C16]] : index
// CHECK-NEXT:     scf.if %{{.*}} {
// CHECK-NEXT:       %{{.*}} = arith.addi %[[C16I]], %[[C16I]] : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     %{{.*}} = arith.muli %[[I]], %[[C16]] : index
// CHECK-NEXT:   }
// CHECK-NOT:    arith.constant
// CHECK:        func.return
func.func @k(%cond: i1) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %c16 = arith.constant 16 : index
    %a = arith.muli %i, %c16 : index
    scf.if %cond {
      %c16_i32 = arith.constant 16 : i32
      %s = arith.addi %c16_i32, %c16_i32 : i32
    }
    %c16_again = arith.constant 16 : index
    %b = arith.muli %i, %c16_again : index
  }
  func.return
}

// -----

// A MIX part's set_ffts_base_addr stays the first op of the entry.
// CHECK-LABEL: func.func @part(
// CHECK-NEXT:    hivm.hir.set_ffts_base_addr
// CHECK-NEXT:    arith.constant 4 : index
func.func @part(%ffts: i64) {
  hivm.hir.set_ffts_base_addr %ffts
  %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %c4 = arith.constant 4 : index
  func.return
}
