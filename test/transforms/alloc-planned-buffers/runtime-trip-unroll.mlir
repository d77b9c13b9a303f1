// RUN: ascend-opt %s -p alloc-planned-buffers | filecheck %s
// A K loop whose trip count is known only at run time (gemm_dyn's, after peel-mmad-init:
// from 1 to %steps) and whose mmadL1 reads a partial tile of a 2-versioned L1 buffer:
// unrolled by the 2 versions so every mmadL1 operand is one alloc (no arith.select,
// which bishengir cannot trace to an alloc): the whole pairs of iterations in a loop of
// step 2 up to 1 + (trips / 2) * 2, the one iteration that may be left under an scf.if.

// (V0 is the version of the odd iterations, offset 16384: the first alloc of that type)
// CHECK:      %[[V0:.*]] = memref.alloc() : memref<128x64xbf16, #hivm.address_space<cbuf>>
// CHECK-NEXT: %[[V1:.*]] = memref.alloc() : memref<128x64xbf16, #hivm.address_space<cbuf>>
// CHECK-NOT:  arith.select
// CHECK:      %[[SPAN:.*]] = arith.subi %[[STEPS:.*]], %c1 : index
// CHECK-NEXT: %[[TRIPS:.*]] = arith.maxsi %[[SPAN]], %c0 : index
// CHECK-NEXT: %[[PAIRS:.*]] = arith.divui %[[TRIPS]], %c2 : index
// CHECK-NEXT: %[[TWICE:.*]] = arith.muli %[[PAIRS]], %c2 : index
// CHECK-NEXT: %[[END:.*]] = arith.addi %c1, %[[TWICE]] : index
// CHECK-NEXT: scf.for %[[S:.*]] = %c1 to %[[END]] step %c2 {
// CHECK:        memref.subview %[[V0]][0, 0]
// CHECK:        hivm.hir.mmadL1
// CHECK:        arith.addi %[[S]], %c1 : index
// CHECK:        memref.subview %[[V1]][0, 0]
// CHECK:        hivm.hir.mmadL1
// CHECK:      }
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi slt, %[[END]], %[[STEPS]] : index
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK:        memref.subview %[[V0]][0, 0]
// CHECK:        hivm.hir.mmadL1
// CHECK:      }
// CHECK-NOT:  hivm.hir.mmadL1
builtin.module {
  func.func @k(%k: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c0_i64 = arith.constant 0 : i64
    %c16384_i64 = arith.constant 16384 : i64
    %c32768_i64 = arith.constant 32768 : i64
    %false = arith.constant false
    %acc = hivm.hir.pointer_cast(%c0_i64) : memref<128x128xf32, #hivm.address_space<cc>>
    %lb = hivm.hir.pointer_cast(%c32768_i64) : memref<64x128xbf16, #hivm.address_space<cbuf>>
    %0 = arith.addi %k, %c63 : index
    %steps = arith.divui %0, %c64 : index
    scf.for %s = %c1 to %steps step %c1 {
      %k0 = arith.muli %s, %c64 : index
      %1 = arith.subi %k, %k0 : index
      %kk = arith.minsi %1, %c64 : index
      %ver = arith.remui %s, %c2 : index
      %2 = arith.index_cast %ver : index to i64
      %3 = arith.muli %2, %c16384_i64 : i64
      %4 = arith.addi %3, %c0_i64 : i64
      %la = hivm.hir.pointer_cast(%4) : memref<128x64xbf16, #hivm.address_space<cbuf>>
      %va = memref.subview %la[0, 0] [128, %kk] [1, 1] : memref<128x64xbf16, #hivm.address_space<cbuf>> to memref<128x?xbf16, strided<[64, 1]>, #hivm.address_space<cbuf>>
      %vb = memref.subview %lb[0, 0] [%kk, 128] [1, 1] : memref<64x128xbf16, #hivm.address_space<cbuf>> to memref<?x128xbf16, strided<[128, 1]>, #hivm.address_space<cbuf>>
      hivm.hir.mmadL1 ins(%va, %vb, %false, %c128, %kk, %c128 : memref<128x?xbf16, strided<[64, 1]>, #hivm.address_space<cbuf>>, memref<?x128xbf16, strided<[128, 1]>, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<128x128xf32, #hivm.address_space<cc>>)
    }
    func.return
  }
}
