// Bad input (verifier): f16 x f32 is not a cube type pair.
// ERROR: unsupported element types f16 x f32 (f16/bf16/f32 x same -> f32, i8 x i8 -> i32)
module {
  func.func @k() {
    %a = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
    %b = memref.alloc() : memref<16x16xf32, #hivm.address_space<cbuf>>
    %c = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
    %t = arith.constant true
    %m = arith.constant 16 : index
    hivm.hir.mmadL1 ins(%a, %b, %t, %m, %m, %m : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf32, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%c : memref<16x16xf32, #hivm.address_space<cc>>)
    return
  }
}
