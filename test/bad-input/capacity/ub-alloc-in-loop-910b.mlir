// Bad input (capacity): a buffer allocated in the loop, live with two from outside.
// ERROR: the 3 ub buffers live here need 245760 bytes (%b0 81920 + %b1 81920 + %b2 81920), but
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @k() {
    %b0 = memref.alloc() : memref<20480xf32, #hivm.address_space<ub>>
    %b1 = memref.alloc() : memref<20480xf32, #hivm.address_space<ub>>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %b2 = memref.alloc() : memref<20480xf32, #hivm.address_space<ub>>
      hivm.hir.vadd ins(%b0, %b1 : memref<20480xf32, #hivm.address_space<ub>>, memref<20480xf32, #hivm.address_space<ub>>) outs(%b2 : memref<20480xf32, #hivm.address_space<ub>>)
    }

    return
  }
}
