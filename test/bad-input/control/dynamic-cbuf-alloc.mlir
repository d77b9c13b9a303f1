// Bad input (control): the same in L1.
// ERROR: a buffer in cbuf needs a static shape (on-chip memory is planned before the kernel runs),
module {
  func.func @k(%n: index) {
    %u = memref.alloc(%n) : memref<16x?xf16, #hivm.address_space<cbuf>>
    return
  }
}
