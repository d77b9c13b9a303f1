// RUN: ascend-opt %s -p ascend-multi-buffer --split-input-file | filecheck %s

// A planned multi-buffer (one address per version) used in a loop: iteration j uses
// version j mod 2 at 0 + v * 2048; the multi-address pointer_cast is gone.
// CHECK-LABEL: func.func @simple
// CHECK-NOT:   hivm.hir.pointer_cast(%{{.*}}, %{{.*}})
// CHECK:       scf.for %i = %c0 to %c8 step %c1 {
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %ver = arith.remui %i, %c2 {ascend.version_index} : index
// CHECK-NEXT:    %[[V64:.*]] = arith.index_cast %ver : index to i64
// CHECK-NEXT:    %c2048_i64 = arith.constant 2048 : i64
// CHECK-NEXT:    %c0_i64 = arith.constant 0 : i64
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[V64]], %c2048_i64 : i64
// CHECK-NEXT:    %[[ADDR:.*]] = arith.addi %[[OFF]], %c0_i64 : i64
// CHECK-NEXT:    %u_v = hivm.hir.pointer_cast(%[[ADDR]]) : memref<512xf32, #hivm.address_space<ub>>
// CHECK-NEXT:    hivm.hir.load ins(%{{.*}}) outs(%u_v : memref<512xf32, #hivm.address_space<ub>>)
// CHECK-NEXT:    hivm.hir.store ins(%u_v : memref<512xf32, #hivm.address_space<ub>>)
func.func @simple(%x: memref<512xf32, #hivm.address_space<gm>>, %y: memref<512xf32, #hivm.address_space<gm>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %a0 = arith.constant 0 : i64
  %a1 = arith.constant 2048 : i64
  %u = hivm.hir.pointer_cast(%a0, %a1) : memref<512xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %c8 step %c1 {
    hivm.hir.load ins(%x : memref<512xf32, #hivm.address_space<gm>>) outs(%u : memref<512xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%u : memref<512xf32, #hivm.address_space<ub>>) outs(%y : memref<512xf32, #hivm.address_space<gm>>)
  }
  return
}

// -----

// The version follows the iteration number (iv - lb) / step, not the loop variable;
// three versions; the innermost loop holding every use (through a subview) owns them.
// CHECK-LABEL: func.func @bounds
// CHECK:       scf.for %i
// CHECK:       scf.for %j = %c2 to %n step %c3 {
// CHECK-NEXT:    %[[D:.*]] = arith.subi %j, %c2 : index
// CHECK-NEXT:    %[[IT:.*]] = arith.divui %[[D]], %c3 : index
// CHECK-NEXT:    %c3_1 = arith.constant 3 : index
// CHECK-NEXT:    %ver = arith.remui %[[IT]], %c3_1 {ascend.version_index} : index
// CHECK:         %u_v = hivm.hir.pointer_cast(%{{.*}}) : memref<2x256xf32, #hivm.address_space<ub>>
// CHECK-NEXT:    %row = memref.subview %u_v[0, 0]
func.func @bounds(%x: memref<256xf32, #hivm.address_space<gm>>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %a0 = arith.constant 1024 : i64
  %a1 = arith.constant 3072 : i64
  %a2 = arith.constant 5120 : i64
  %u = hivm.hir.pointer_cast(%a0, %a1, %a2) : memref<2x256xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c2 to %n step %c3 {
      %row = memref.subview %u[0, 0] [1, 256] [1, 1] : memref<2x256xf32, #hivm.address_space<ub>> to memref<256xf32, strided<[1]>, #hivm.address_space<ub>>
      hivm.hir.load ins(%x : memref<256xf32, #hivm.address_space<gm>>) outs(%row : memref<256xf32, strided<[1]>, #hivm.address_space<ub>>)
    }
  }
  return
}

// -----

// Addresses that are not evenly spaced (not made by ascend-plan-memory) are selected.
// CHECK-LABEL: func.func @uneven
// CHECK:       %ver = arith.remui %i, %c3 {ascend.version_index} : index
// CHECK:       %[[EQ1:.*]] = arith.cmpi eq, %{{.*}}, %c1_i64 : i64
// CHECK-NEXT:  %[[S1:.*]] = arith.select %[[EQ1]], %c4096_i64, %c0_i64 : i64
// CHECK:       %[[EQ2:.*]] = arith.cmpi eq, %{{.*}}, %c2_i64 : i64
// CHECK-NEXT:  %[[S2:.*]] = arith.select %[[EQ2]], %c5120_i64, %[[S1]] : i64
// CHECK-NEXT:  hivm.hir.pointer_cast(%[[S2]])
func.func @uneven(%x: memref<512xf32, #hivm.address_space<gm>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %a0 = arith.constant 0 : i64
  %a1 = arith.constant 4096 : i64
  %a2 = arith.constant 5120 : i64
  %u = hivm.hir.pointer_cast(%a0, %a1, %a2) : memref<512xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %c8 step %c1 {
    hivm.hir.load ins(%x : memref<512xf32, #hivm.address_space<gm>>) outs(%u : memref<512xf32, #hivm.address_space<ub>>)
  }
  return
}

// -----

// A multi-buffer used outside any loop cannot follow iterations: left as is, said so.
// CHECK-LABEL: func.func @no_loop
// CHECK: hivm.hir.pointer_cast(%a0, %a1)
func.func @no_loop(%x: memref<512xf32, #hivm.address_space<gm>>) {
  %a0 = arith.constant 0 : i64
  %a1 = arith.constant 2048 : i64
  %u = hivm.hir.pointer_cast(%a0, %a1) : memref<512xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%x : memref<512xf32, #hivm.address_space<gm>>) outs(%u : memref<512xf32, #hivm.address_space<ub>>)
  return
}
