// Bad input (capacity): a 256x256 f32 accumulator is 256 KiB, L0C is 128 KiB on the 910B.
// SIM:
// ERROR: this cc buffer alone needs 262144 bytes, but ascend910b has 131072 bytes of cc
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @k() {
    %c = memref.alloc() : memref<256x256xf32, #hivm.address_space<cc>>
    return
  }
}
