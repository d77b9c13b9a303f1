// C = A @ B on Ascend 910B: A 256x512 bf16, B 512x256 bf16, C 256x256 fp32.
// 4 blocks in a 2x2 grid, each owning a 128x128 tile of C: its fp32 accumulator is
// 64 KiB, so it fits 910B's 128 KiB L0C (cc) even with two versions. K loop of 4 steps
// of 128 with the 32 KiB A and B tiles staged in L1 (cbuf).
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @gemm_910b(%a: memref<256x512xbf16, #hivm.address_space<gm>>,
                       %b: memref<512x256xbf16, #hivm.address_space<gm>>,
                       %c: memref<256x256xf32, #hivm.address_space<gm>>)
      attributes {tile.kernel, tile.grid = 4 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %block = tile.block_idx : index
    %bm = arith.divui %block, %c2 : index
    %bn = arith.remui %block, %c2 : index
    %m0 = arith.muli %bm, %c128 : index
    %n0 = arith.muli %bn, %c128 : index
    %la = memref.alloc() : memref<128x128xbf16, #hivm.address_space<cbuf>>
    %lb = memref.alloc() : memref<128x128xbf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<128x128xf32, #hivm.address_space<cc>>
    scf.for %k = %c0 to %c4 step %c1 {
      %k0 = arith.muli %k, %c128 : index
      %as = memref.subview %a[%m0, %k0] [128, 128] [1, 1] : memref<256x512xbf16, #hivm.address_space<gm>> to memref<128x128xbf16, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>
      %bs = memref.subview %b[%k0, %n0] [128, 128] [1, 1] : memref<512x256xbf16, #hivm.address_space<gm>> to memref<128x128xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%as : memref<128x128xbf16, strided<[512, 1], offset: ?>, #hivm.address_space<gm>>) outs(%la : memref<128x128xbf16, #hivm.address_space<cbuf>>)
      tile.copy ins(%bs : memref<128x128xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lb : memref<128x128xbf16, #hivm.address_space<cbuf>>)
      %first = arith.cmpi eq, %k, %c0 : index
      tile.matmul ins(%la, %lb : memref<128x128xbf16, #hivm.address_space<cbuf>>, memref<128x128xbf16, #hivm.address_space<cbuf>>) outs(%acc : memref<128x128xf32, #hivm.address_space<cc>>) init(%first : i1)
    } {tile.num_stages = 2 : i64}
    %cs = memref.subview %c[%m0, %n0] [128, 128] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<128x128xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
    tile.copy ins(%acc : memref<128x128xf32, #hivm.address_space<cc>>) outs(%cs : memref<128x128xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>)
    return
  }
}
