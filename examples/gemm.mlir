// C = A @ B on Ascend 950 (the default chip): A 256x512 bf16, B 512x448 bf16, C 256x448 fp32.
// 2 blocks, each owning a 256x224 tile of C accumulated in L0C (cc) over a K loop of
// 4 steps of 128; the A and B tiles of a step are staged in L1 (cbuf).
// tile.num_stages = 2 lets the scheduler double-buffer the L1 tiles so that the loads of
// step k+1 overlap the matmul of step k.
module {
  func.func @gemm(%a: memref<256x512xbf16, #hivm.address_space<gm>>,
                  %b: memref<512x448xbf16, #hivm.address_space<gm>>,
                  %c: memref<256x448xf32, #hivm.address_space<gm>>)
      attributes {tile.kernel, tile.grid = 2 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %c224 = arith.constant 224 : index
    %block = tile.block_idx : index
    %n0 = arith.muli %block, %c224 : index
    %la = memref.alloc() : memref<256x128xbf16, #hivm.address_space<cbuf>>
    %lb = memref.alloc() : memref<128x224xbf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<256x224xf32, #hivm.address_space<cc>>
    scf.for %k = %c0 to %c4 step %c1 {
      %k0 = arith.muli %k, %c128 : index
      %as = memref.subview %a[0, %k0] [256, 128] [1, 1] : memref<256x512xbf16, #hivm.address_space<gm>> to memref<256x128xbf16, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>
      %bs = memref.subview %b[%k0, %n0] [128, 224] [1, 1] : memref<512x448xbf16, #hivm.address_space<gm>> to memref<128x224xbf16, strided<[448, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%as : memref<256x128xbf16, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>) outs(%la : memref<256x128xbf16, #hivm.address_space<cbuf>>)
      tile.copy ins(%bs : memref<128x224xbf16, strided<[448, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lb : memref<128x224xbf16, #hivm.address_space<cbuf>>)
      %first = arith.cmpi eq, %k, %c0 : index
      tile.matmul ins(%la, %lb : memref<256x128xbf16, #hivm.address_space<cbuf>>, memref<128x224xbf16, #hivm.address_space<cbuf>>) outs(%acc : memref<256x224xf32, #hivm.address_space<cc>>) init(%first : i1)
    } {tile.num_stages = 2 : i64}
    %cs = memref.subview %c[0, %n0] [256, 224] [1, 1] : memref<256x448xf32, #hivm.address_space<gm>> to memref<256x224xf32, strided<[448, 1], offset: ?>, #hivm.address_space<gm>>
    tile.copy ins(%acc : memref<256x224xf32, #hivm.address_space<cc>>) outs(%cs : memref<256x224xf32, strided<[448, 1], offset: ?>, #hivm.address_space<gm>>)
    return
  }
}
