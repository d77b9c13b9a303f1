// Persistent GEMM, C (fp32) = A @ B with fp16 inputs, on Ascend 950: the grid is
// smaller than the number of output tiles, so each block loops over its share of them
// (tile t of block b is t * GRID + b) and, per tile, accumulates over K in L0C.
// A 256x256, B 256x256, C 256x256; tiles 128x128, K steps of 64; 2 blocks x 2 tiles.
// Both loops allow 2 buffer versions: L1 tiles across K steps, and the accumulator across
// output tiles (so the fixpipe of one tile may overlap the K loop of the next).
// Twin of gemm_fp16.py (written with the Python DSL).
module {
  func.func @gemm_fp16(%a: memref<256x256xf16, #hivm.address_space<gm>>, %b: memref<256x256xf16, #hivm.address_space<gm>>, %c: memref<256x256xf32, #hivm.address_space<gm>>) attributes {tile.kernel, tile.grid = 2 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %block = tile.block_idx : index
    %la = memref.alloc() : memref<128x64xf16, #hivm.address_space<cbuf>>
    %lb = memref.alloc() : memref<64x128xf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<128x128xf32, #hivm.address_space<cc>>
    scf.for %t = %c0 to %c2 step %c1 {
      %0 = arith.muli %t, %c2 : index
      %tile_id = arith.addi %0, %block : index
      %1 = arith.divui %tile_id, %c2 : index
      %m0 = arith.muli %1, %c128 : index
      %2 = arith.remui %tile_id, %c2 : index
      %n0 = arith.muli %2, %c128 : index
      scf.for %k = %c0 to %c4 step %c1 {
        %k0 = arith.muli %k, %c64 : index
        %a_tile = memref.subview %a[%m0, %k0] [128, 64] [1, 1] : memref<256x256xf16, #hivm.address_space<gm>> to memref<128x64xf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
        %b_tile = memref.subview %b[%k0, %n0] [64, 128] [1, 1] : memref<256x256xf16, #hivm.address_space<gm>> to memref<64x128xf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
        tile.copy ins(%a_tile : memref<128x64xf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%la : memref<128x64xf16, #hivm.address_space<cbuf>>)
        tile.copy ins(%b_tile : memref<64x128xf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lb : memref<64x128xf16, #hivm.address_space<cbuf>>)
        %3 = arith.cmpi eq, %k, %c0 : index
        tile.matmul ins(%la, %lb : memref<128x64xf16, #hivm.address_space<cbuf>>, memref<64x128xf16, #hivm.address_space<cbuf>>) outs(%acc : memref<128x128xf32, #hivm.address_space<cc>>) init(%3 : i1)
      } {tile.num_stages = 2 : i64}
      %c_tile = memref.subview %c[%m0, %n0] [128, 128] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<128x128xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%acc : memref<128x128xf32, #hivm.address_space<cc>>) outs(%c_tile : memref<128x128xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>)
    } {tile.num_stages = 2 : i64}
    func.return
  }
}
