// Bad input (control): on-chip buffers have static shapes.
// ERROR: a buffer in ub needs a static shape (on-chip memory is planned before the kernel runs),
module {
  func.func @k(%n: index) {
    %u = memref.alloc(%n) : memref<?xf32, #hivm.address_space<ub>>
    return
  }
}
