// Bad input (capacity): an L0A buffer over 64 KiB on the 910B.
// ERROR: this ca buffer alone needs 131072 bytes, but ascend910b has 65536 bytes of ca
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @k() {
    %a = memref.alloc() : memref<256x256xf16, #hivm.address_space<ca>>
    return
  }
}
