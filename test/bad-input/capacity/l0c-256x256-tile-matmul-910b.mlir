// Bad input (capacity): the same accumulator of a tile.matmul.
// ARGS: -p convert-tile-to-hivm{chip=ascend910b}
// ERROR: this cc buffer alone needs 262144 bytes, but ascend910b has 131072 bytes of cc
module {
  func.func @k() {
    %a = memref.alloc() : memref<256x128xf16, #hivm.address_space<cbuf>>
    %b = memref.alloc() : memref<128x256xf16, #hivm.address_space<cbuf>>
    %c = memref.alloc() : memref<256x256xf32, #hivm.address_space<cc>>
    %t = arith.constant true
    tile.matmul ins(%a, %b : memref<256x128xf16, #hivm.address_space<cbuf>>, memref<128x256xf16, #hivm.address_space<cbuf>>) outs(%c : memref<256x256xf32, #hivm.address_space<cc>>) init(%t : i1)
    return
  }
}
