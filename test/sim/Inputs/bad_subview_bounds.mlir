module {
  func.func @k(%x: memref<16xf16, #hivm.address_space<gm>>) attributes {hacc.entry} {
    %c8 = arith.constant 8 : index
    %u = memref.alloc() : memref<16xf16, #hivm.address_space<ub>>
    %s = memref.subview %x[%c8] [16] [1] : memref<16xf16, #hivm.address_space<gm>> to memref<16xf16, strided<[1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.load ins(%s : memref<16xf16, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%u : memref<16xf16, #hivm.address_space<ub>>)
    return
  }
}
