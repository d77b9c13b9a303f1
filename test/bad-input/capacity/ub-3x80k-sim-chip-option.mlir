// Bad input (capacity): ascend-sim --chip ascend910b on hivm IR without a target.
// ARGS: -p convert-tile-to-hivm{chip=ascend910b}
// SIM: --chip ascend910b
// ERROR: the 3 ub buffers live here need 245760 bytes (%b0 81920 + %b1 81920 + %b2 81920), but
module {
  func.func @k() {
    %b0 = memref.alloc() : memref<20480xf32, #hivm.address_space<ub>>
    %b1 = memref.alloc() : memref<20480xf32, #hivm.address_space<ub>>
    %b2 = memref.alloc() : memref<20480xf32, #hivm.address_space<ub>>
    hivm.hir.vadd ins(%b0, %b1 : memref<20480xf32, #hivm.address_space<ub>>, memref<20480xf32, #hivm.address_space<ub>>) outs(%b2 : memref<20480xf32, #hivm.address_space<ub>>)
    return
  }
}
