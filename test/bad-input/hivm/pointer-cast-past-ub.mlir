// Bad input (hivm): pointer_cast past the end of UB.
// ARGS: -p ascend-verify-sync
// ERROR: places 64 bytes at ub offset 1073741824
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %c = arith.constant 1073741824 : i64
    %a = hivm.hir.pointer_cast(%c) : memref<16xf32, #hivm.address_space<ub>>
    return
  }
}
