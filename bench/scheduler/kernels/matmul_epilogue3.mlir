// A fused matmul + epilogue loop with three L1 operands (a SwiGLU MLP projection with a
// residual) on Ascend 950, a MIX kernel:
//   Y = silu(X Wg) * (X Wu) + R,  silu(g) = g / (1 + exp(-g))
// X 256x128 bf16, Wg and Wu 128x256 bf16, R and Y 256x256 fp32; 4 blocks, each owning
// 64 rows of Y.  X's row block is staged in L1 once; the loop walks the 4 column tiles
// of 64: Wg_j and Wu_j go to L1 (MTE2), the two matmuls read X, Wg_j, Wu_j from L1 into
// two L0C tiles, the fixpipe hands both to UB, and the vector core applies the
// epilogue, adds the residual tile (loaded GM -> UB on MTE2, sharing the HBM port with
// the store) and stores the tile.  With tile.num_stages = 2 the scheduler may
// double-buffer the L1, L0C and UB tiles.
module {
  func.func @matmul_epilogue3(%x: memref<256x128xbf16, #hivm.address_space<gm>>, %wg: memref<128x256xbf16, #hivm.address_space<gm>>, %wu: memref<128x256xbf16, #hivm.address_space<gm>>, %r: memref<256x256xf32, #hivm.address_space<gm>>, %y: memref<256x256xf32, #hivm.address_space<gm>>)
      attributes {tile.kernel, tile.grid = 4 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %true = arith.constant true
    %minus_one = arith.constant -1.0 : f32
    %one = arith.constant 1.0 : f32
    %block = tile.block_idx : index
    %m0 = arith.muli %block, %c64 : index
    %lx = memref.alloc() : memref<64x128xbf16, #hivm.address_space<cbuf>>
    %lg = memref.alloc() : memref<128x64xbf16, #hivm.address_space<cbuf>>
    %lu = memref.alloc() : memref<128x64xbf16, #hivm.address_space<cbuf>>
    %cg = memref.alloc() : memref<64x64xf32, #hivm.address_space<cc>>
    %cu = memref.alloc() : memref<64x64xf32, #hivm.address_space<cc>>
    %ug = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    %uu = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    %ut = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    %ur = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    %xs = memref.subview %x[%m0, 0] [64, 128] [1, 1] : memref<256x128xbf16, #hivm.address_space<gm>> to memref<64x128xbf16, strided<[128, 1], offset: ?>, #hivm.address_space<gm>>
    tile.copy ins(%xs : memref<64x128xbf16, strided<[128, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lx : memref<64x128xbf16, #hivm.address_space<cbuf>>)
    scf.for %j = %c0 to %c4 step %c1 {
      %n0 = arith.muli %j, %c64 : index
      %wgs = memref.subview %wg[0, %n0] [128, 64] [1, 1] : memref<128x256xbf16, #hivm.address_space<gm>> to memref<128x64xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      %wus = memref.subview %wu[0, %n0] [128, 64] [1, 1] : memref<128x256xbf16, #hivm.address_space<gm>> to memref<128x64xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      %rs = memref.subview %r[%m0, %n0] [64, 64] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<64x64xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      %ys = memref.subview %y[%m0, %n0] [64, 64] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<64x64xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%wgs : memref<128x64xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lg : memref<128x64xbf16, #hivm.address_space<cbuf>>)
      tile.copy ins(%wus : memref<128x64xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lu : memref<128x64xbf16, #hivm.address_space<cbuf>>)
      tile.matmul ins(%lx, %lg : memref<64x128xbf16, #hivm.address_space<cbuf>>, memref<128x64xbf16, #hivm.address_space<cbuf>>) outs(%cg : memref<64x64xf32, #hivm.address_space<cc>>) init(%true : i1)
      tile.matmul ins(%lx, %lu : memref<64x128xbf16, #hivm.address_space<cbuf>>, memref<128x64xbf16, #hivm.address_space<cbuf>>) outs(%cu : memref<64x64xf32, #hivm.address_space<cc>>) init(%true : i1)
      tile.copy ins(%cg : memref<64x64xf32, #hivm.address_space<cc>>) outs(%ug : memref<64x64xf32, #hivm.address_space<ub>>)
      tile.copy ins(%cu : memref<64x64xf32, #hivm.address_space<cc>>) outs(%uu : memref<64x64xf32, #hivm.address_space<ub>>)
      tile.copy ins(%rs : memref<64x64xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%ur : memref<64x64xf32, #hivm.address_space<ub>>)
      tile.mul ins(%ug, %minus_one : memref<64x64xf32, #hivm.address_space<ub>>, f32) outs(%ut : memref<64x64xf32, #hivm.address_space<ub>>)
      tile.exp ins(%ut : memref<64x64xf32, #hivm.address_space<ub>>) outs(%ut : memref<64x64xf32, #hivm.address_space<ub>>)
      tile.add ins(%ut, %one : memref<64x64xf32, #hivm.address_space<ub>>, f32) outs(%ut : memref<64x64xf32, #hivm.address_space<ub>>)
      tile.div ins(%ug, %ut : memref<64x64xf32, #hivm.address_space<ub>>, memref<64x64xf32, #hivm.address_space<ub>>) outs(%ut : memref<64x64xf32, #hivm.address_space<ub>>)
      tile.mul ins(%ut, %uu : memref<64x64xf32, #hivm.address_space<ub>>, memref<64x64xf32, #hivm.address_space<ub>>) outs(%ut : memref<64x64xf32, #hivm.address_space<ub>>)
      tile.add ins(%ut, %ur : memref<64x64xf32, #hivm.address_space<ub>>, memref<64x64xf32, #hivm.address_space<ub>>) outs(%ut : memref<64x64xf32, #hivm.address_space<ub>>)
      tile.copy ins(%ut : memref<64x64xf32, #hivm.address_space<ub>>) outs(%ys : memref<64x64xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>)
    } {tile.num_stages = 2 : i64}
    return
  }
}
