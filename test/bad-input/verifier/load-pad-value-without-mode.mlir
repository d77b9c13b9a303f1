// Bad input (verifier): pad_value needs PadValue.
// ERROR: pad_value needs pad_mode PadValue
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    %p = arith.constant 0.0 : f32
    hivm.hir.load ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>) pad_value = %p : f32
    return
  }
}
