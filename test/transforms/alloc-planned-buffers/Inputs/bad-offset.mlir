// An offset alloc-planned-buffers does not understand (a product of two loop values).
builtin.module {
  func.func @k() attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %a = arith.index_cast %i : index to i64
      %b = arith.muli %a, %a : i64
      %u = hivm.hir.pointer_cast(%b) : memref<256xf32, #hivm.address_space<ub>>
    }
    func.return
  }
}
