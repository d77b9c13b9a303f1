// A MIX test kernel for Ascend 910B (examples/gemm_relu.mlir is 950-only: cc -> ub): the cube
// writes C to GM, the vector core reads it back, applies relu and stores. Used by the
// bishengir route tests (test_sim_bishengir.py).
// C = relu(A @ B) on Ascend 910B, a MIX kernel: the cube core accumulates a 128x128 fp32
// tile in L0C over a K loop (4 steps of 64), the fixpipe moves it to GM (910B has no cc -> ub path), and the vector core applies relu and stores.
// A 256x256 bf16, B 256x256 bf16, C 256x256 fp32; 4 blocks in a 2x2 grid.
module {
  func.func @gemm_relu(%a: memref<256x256xbf16, #hivm.address_space<gm>>,
                       %b: memref<256x256xbf16, #hivm.address_space<gm>>,
                       %c: memref<256x256xf32, #hivm.address_space<gm>>)
      attributes {tile.kernel, tile.grid = 4 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %block = tile.block_idx : index
    %bm = arith.divui %block, %c2 : index
    %bn = arith.remui %block, %c2 : index
    %m0 = arith.muli %bm, %c128 : index
    %n0 = arith.muli %bn, %c128 : index
    %la = memref.alloc() : memref<128x64xbf16, #hivm.address_space<cbuf>>
    %lb = memref.alloc() : memref<64x128xbf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<128x128xf32, #hivm.address_space<cc>>
    %uc = memref.alloc() : memref<128x128xf32, #hivm.address_space<ub>>
    %ur = memref.alloc() : memref<128x128xf32, #hivm.address_space<ub>>
    scf.for %k = %c0 to %c4 step %c1 {
      %k0 = arith.muli %k, %c64 : index
      %as = memref.subview %a[%m0, %k0] [128, 64] [1, 1] : memref<256x256xbf16, #hivm.address_space<gm>> to memref<128x64xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      %bs = memref.subview %b[%k0, %n0] [64, 128] [1, 1] : memref<256x256xbf16, #hivm.address_space<gm>> to memref<64x128xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%as : memref<128x64xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%la : memref<128x64xbf16, #hivm.address_space<cbuf>>)
      tile.copy ins(%bs : memref<64x128xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lb : memref<64x128xbf16, #hivm.address_space<cbuf>>)
      %first = arith.cmpi eq, %k, %c0 : index
      tile.matmul ins(%la, %lb : memref<128x64xbf16, #hivm.address_space<cbuf>>, memref<64x128xbf16, #hivm.address_space<cbuf>>) outs(%acc : memref<128x128xf32, #hivm.address_space<cc>>) init(%first : i1)
    } {tile.num_stages = 2 : i64}
    %cs = memref.subview %c[%m0, %n0] [128, 128] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<128x128xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
    tile.copy ins(%acc : memref<128x128xf32, #hivm.address_space<cc>>) outs(%cs : memref<128x128xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>)
    tile.copy ins(%cs : memref<128x128xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%uc : memref<128x128xf32, #hivm.address_space<ub>>)
    tile.relu ins(%uc : memref<128x128xf32, #hivm.address_space<ub>>) outs(%ur : memref<128x128xf32, #hivm.address_space<ub>>)
    tile.copy ins(%ur : memref<128x128xf32, #hivm.address_space<ub>>) outs(%cs : memref<128x128xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>)
    return
  }
}
