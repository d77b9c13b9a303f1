// A computed mmadL1 init (`arith.cmpi eq, %k, %lb`) inside the K loop crashes
// bishengir-compile 1.2.0: the first iteration is peeled with init = true and the loop
// restarts at lb + step with init = false.
// RUN: ascend-opt %s -p peel-mmad-init --split-input-file | filecheck %s

// CHECK-LABEL: func.func @static_bounds
// CHECK:      %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK:      %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: %[[FALSE:.*]] = arith.constant false
// CHECK-NEXT: %[[K0:.*]] = arith.muli %[[C0]], %{{.*}} : index
// CHECK-NEXT: %[[A0:.*]] = memref.subview %{{.*}}[%[[K0]], 0] [16, 16] [1, 1]
// CHECK-NEXT: hivm.hir.nd2nz {dst_continuous} ins(%[[A0]] :
// CHECK-NEXT: hivm.hir.mmadL1 ins(%{{.*}}, %{{.*}}, %[[TRUE]], %{{.*}}, %{{.*}}, %{{.*}} :
// The loop restarts at lb + step = 1 (folded); the comparison is gone.
// CHECK-NEXT: %[[NEXT:.*]] = arith.constant 1 : index
// CHECK-NEXT: scf.for %[[K:.*]] = %[[NEXT]] to %{{.*}} step %[[C1]] {
// CHECK-NOT:  arith.cmpi
// CHECK:      hivm.hir.mmadL1 ins(%{{.*}}, %{{.*}}, %[[FALSE]], %{{.*}}, %{{.*}}, %{{.*}} :
// CHECK:      }
// CHECK-NEXT: hivm.hir.fixpipe
func.func @static_bounds(%a: memref<64x16xf16, #hivm.address_space<gm>>, %o: memref<16x16xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %l1 = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
  scf.for %k = %c0 to %c4 step %c1 {
    %k0 = arith.muli %k, %c16 : index
    %as = memref.subview %a[%k0, 0] [16, 16] [1, 1] : memref<64x16xf16, #hivm.address_space<gm>> to memref<16x16xf16, strided<[16, 1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.nd2nz {dst_continuous} ins(%as : memref<16x16xf16, strided<[16, 1], offset: ?>, #hivm.address_space<gm>>) outs(%l1 : memref<16x16xf16, #hivm.address_space<cbuf>>)
    %first = arith.cmpi eq, %k, %c0 : index
    hivm.hir.mmadL1 ins(%l1, %l1, %first, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>)
  }
  hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%o : memref<16x16xf32, #hivm.address_space<gm>>)
  func.return
}

// -----

// A trip count that may be zero: the peeled iteration runs only when lb < ub.
// CHECK-LABEL: func.func @dynamic_bounds
// CHECK:      %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: %[[FALSE:.*]] = arith.constant false
// CHECK:      %[[NONEMPTY:.*]] = arith.cmpi slt, %[[LB:.*]], %[[UB:.*]] : index
// CHECK-NEXT: scf.if %[[NONEMPTY]] {
// CHECK-NEXT:   hivm.hir.mmadL1 ins(%{{.*}}, %{{.*}}, %[[TRUE]],
// CHECK-NEXT: }
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[LB]], %[[STEP:.*]] : index
// CHECK-NEXT: scf.for %{{.*}} = %[[NEXT]] to %[[UB]] step %[[STEP]] {
// CHECK-NEXT:   hivm.hir.mmadL1 ins(%{{.*}}, %{{.*}}, %[[FALSE]],
func.func @dynamic_bounds(%lb: index, %ub: index) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>} {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %l1 = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
  scf.for %k = %lb to %ub step %c1 {
    %first = arith.cmpi eq, %lb, %k : index
    hivm.hir.mmadL1 ins(%l1, %l1, %first, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>)
  }
  func.return
}

// -----

// A constant init is printed as it is.
// CHECK-LABEL: func.func @constant_init
// CHECK:      scf.for %{{.*}} = %[[C0:.*]] to
// CHECK-NEXT:   hivm.hir.mmadL1 ins(%{{.*}}, %{{.*}}, %[[FALSE:.*]],
// CHECK-NOT:  hivm.hir.mmadL1
func.func @constant_init() attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %false = arith.constant false
  %l1 = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
  scf.for %k = %c0 to %c4 step %c1 {
    hivm.hir.mmadL1 ins(%l1, %l1, %false, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>)
  }
  func.return
}

// -----

// Loop-carried values: the peeled iteration's yield feeds the loop.
// CHECK-LABEL: func.func @iter_args
// CHECK:      %[[PEELED:.*]] = arith.addi %[[INIT:.*]], %{{.*}} : index
// CHECK:      %{{.*}} = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[PEELED]]) -> (index) {
func.func @iter_args() -> index attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %l1 = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
  %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%s = %c0) -> (index) {
    %first = arith.cmpi eq, %k, %c0 : index
    hivm.hir.mmadL1 ins(%l1, %l1, %first, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>)
    %next = arith.addi %s, %c16 : index
    scf.yield %next : index
  }
  func.return %sum : index
}

// -----

// An init of another form is left alone here (-t npuir reports it, see
// test/targets/npuir/errors.mlir).
// CHECK-LABEL: func.func @other_form
// CHECK:      scf.for
// CHECK-NEXT:   %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:   hivm.hir.mmadL1 ins(%{{.*}}, %{{.*}}, %[[FIRST]],
func.func @other_form() attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %l1 = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
  scf.for %k = %c0 to %c4 step %c1 {
    %first = arith.cmpi eq, %k, %c1 : index
    hivm.hir.mmadL1 ins(%l1, %l1, %first, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>)
  }
  func.return
}

// -----

// One trip (a K of one step): the peeled iteration is all there is; no loop of no trips
// is left, and the loop's result is the peeled iteration's yield.
// CHECK-LABEL: func.func @one_trip
// CHECK:      %[[TRUE:.*]] = arith.constant true
// CHECK-NOT:  arith.constant false
// CHECK:      hivm.hir.mmadL1 ins(%{{.*}}, %{{.*}}, %[[TRUE]],
// CHECK-NEXT: %[[PEELED:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK-NOT:  scf.for
// CHECK-NEXT: func.return %[[PEELED]] : index
func.func @one_trip() -> index attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %l1 = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
  %sum = scf.for %k = %c0 to %c1 step %c1 iter_args(%s = %c0) -> (index) {
    %first = arith.cmpi eq, %k, %c0 : index
    hivm.hir.mmadL1 ins(%l1, %l1, %first, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>)
    %next = arith.addi %s, %c16 : index
    scf.yield %next : index
  }
  func.return %sum : index
}
