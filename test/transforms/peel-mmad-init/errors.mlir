// A loop with iter_args whose trip count may be zero cannot be peeled.
// RUN: ascend-opt %s -p peel-mmad-init --verify-diagnostics

func.func @maybe_empty(%lb: index, %ub: index) -> index attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>} {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %l1 = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
  // expected-error @+1 {{cannot peel the first iteration of a loop with iter_args and a trip count that may be zero}}
  %sum = scf.for %k = %lb to %ub step %c1 iter_args(%s = %lb) -> (index) {
    %first = arith.cmpi eq, %k, %lb : index
    hivm.hir.mmadL1 ins(%l1, %l1, %first, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>)
    %next = arith.addi %s, %c16 : index
    scf.yield %next : index
  }
  func.return %sum : index
}
