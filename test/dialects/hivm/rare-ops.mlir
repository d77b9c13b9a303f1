// The rare ops' text that no differential test covers, printed as written and the same
// after a trip through the generic form: multi_buffer_counter (the syntax of bishengir's
// sources, `attr-dict -> i64`: neither bishengir-opt 1.2.0 build knows it) and the tensor
// form of vdeinterleave with two results (bishengir names them %0:2, which the line-for-line
// differential test cannot compare).
// RUN: ascend-opt %s | filecheck %s
// RUN: ascend-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: ascend-opt %s --print-op-generic | ascend-opt | filecheck %s

// CHECK-LABEL: func.func @counter
// CHECK: %{{.*}} = hivm.hir.multi_buffer_counter -> i64
// CHECK: %{{.*}} = hivm.hir.multi_buffer_counter {hivm.loop_id = 0 : i64} -> i64
// GENERIC: "hivm.hir.multi_buffer_counter"() : () -> i64
// GENERIC: "hivm.hir.multi_buffer_counter"() {hivm.loop_id = 0 : i64} : () -> i64
func.func @counter() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %iv = %c0 to %c4 step %c1 {
    %counter = hivm.hir.multi_buffer_counter -> i64
    %tagged = hivm.hir.multi_buffer_counter {hivm.loop_id = 0 : i64} -> i64
  }
  return
}

// CHECK-LABEL: func.func @deinterleave_tensor
// CHECK: %{{.*}}, %{{.*}} = hivm.hir.vdeinterleave ins(%{{.*}} : tensor<2x32xf16>) outs(%{{.*}}, %{{.*}} : tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<2x16xf16>, tensor<2x16xf16>
// GENERIC: "hivm.hir.vdeinterleave"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<2x32xf16>, tensor<2x16xf16>, tensor<2x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
func.func @deinterleave_tensor(%t: tensor<2x32xf16>, %e: tensor<2x16xf16>, %o: tensor<2x16xf16>) {
  %r:2 = hivm.hir.vdeinterleave ins(%t : tensor<2x32xf16>) outs(%e, %o : tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<2x16xf16>, tensor<2x16xf16>
  return
}
