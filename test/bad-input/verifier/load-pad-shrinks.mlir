// Bad input (verifier): padding grows the last dim.
// ERROR: padding cannot shrink the last dimension (16 -> 8)
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<8xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<8xf32, #hivm.address_space<ub>>) pad_mode = <PadFirstElem>
    return
  }
}
