module {
  func.func @k() {
    %0 = arith.constant 1 : index
    hivm.hir.bogus
    return
  }
}
