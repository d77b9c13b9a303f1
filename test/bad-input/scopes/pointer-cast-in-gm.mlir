// Bad input (scopes): pointer_cast places on-chip buffers.
// ERROR: result must be in an on-chip scope (cbuf, ca, cb, cc, ub), got gm
module {
  func.func @k() {
    %a = arith.constant 0 : i64
    %p = hivm.hir.pointer_cast(%a) : memref<16xf32, #hivm.address_space<gm>>
    return
  }
}
