// Bad input (syntax): pointer_cast needs `: type`.
// ERROR: Expected ':'
module {
  func.func @k() {
    %a = arith.constant 0 : i64
    %p = hivm.hir.pointer_cast(%a) memref<16xf32, #hivm.address_space<ub>>
    return
  }
}
