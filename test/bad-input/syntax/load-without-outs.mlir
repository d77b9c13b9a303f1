// Bad input (syntax): load needs outs(...).
// ERROR: Expected 'outs'
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%g : memref<16xf32, #hivm.address_space<gm>>)
    return
  }
}
