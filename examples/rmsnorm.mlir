// RMSNorm of a 256x256 fp32 matrix, y = x / sqrt(mean(x^2) + eps) * w (twin of
// rmsnorm.py): 4 blocks of 64 rows, each a loop over 4 tiles of 16 rows in the unified
// buffer. The weight row is loaded once and broadcast to the tile's 16 rows.
module {
  func.func @rmsnorm(%x: memref<256x256xf32, #hivm.address_space<gm>>, %w: memref<1x256xf32, #hivm.address_space<gm>>, %y: memref<256x256xf32, #hivm.address_space<gm>>) attributes {tile.kernel, tile.grid = 4 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %cst = arith.constant 1.000000e-06 : f32
    %cst_1 = arith.constant 3.906250e-03 : f32
    %0 = tile.block_idx : index
    %base = arith.muli %0, %c64 : index
    %w_row = memref.alloc() : memref<1x256xf32, #hivm.address_space<ub>>
    %w_wide = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %ux = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %sq = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %ms = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
    %wide = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %uy = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    tile.copy ins(%w : memref<1x256xf32, #hivm.address_space<gm>>) outs(%w_row : memref<1x256xf32, #hivm.address_space<ub>>)
    tile.broadcast ins(%w_row : memref<1x256xf32, #hivm.address_space<ub>>) outs(%w_wide : memref<16x256xf32, #hivm.address_space<ub>>) dims = [0]
    scf.for %i = %c0 to %c4 step %c1 {
      %1 = arith.muli %i, %c16 : index
      %row0 = arith.addi %base, %1 : index
      %x_tile = memref.subview %x[%row0, 0] [16, 256] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      %y_tile = memref.subview %y[%row0, 0] [16, 256] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%x_tile : memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%ux : memref<16x256xf32, #hivm.address_space<ub>>)
      tile.mul ins(%ux, %ux : memref<16x256xf32, #hivm.address_space<ub>>, memref<16x256xf32, #hivm.address_space<ub>>) outs(%sq : memref<16x256xf32, #hivm.address_space<ub>>)
      tile.reduce <sum> ins(%sq : memref<16x256xf32, #hivm.address_space<ub>>) outs(%ms : memref<16x1xf32, #hivm.address_space<ub>>) dims = [1]
      tile.mul ins(%ms, %cst_1 : memref<16x1xf32, #hivm.address_space<ub>>, f32) outs(%ms : memref<16x1xf32, #hivm.address_space<ub>>)
      tile.add ins(%ms, %cst : memref<16x1xf32, #hivm.address_space<ub>>, f32) outs(%ms : memref<16x1xf32, #hivm.address_space<ub>>)
      tile.rsqrt ins(%ms : memref<16x1xf32, #hivm.address_space<ub>>) outs(%ms : memref<16x1xf32, #hivm.address_space<ub>>)
      tile.broadcast ins(%ms : memref<16x1xf32, #hivm.address_space<ub>>) outs(%wide : memref<16x256xf32, #hivm.address_space<ub>>) dims = [1]
      tile.mul ins(%ux, %wide : memref<16x256xf32, #hivm.address_space<ub>>, memref<16x256xf32, #hivm.address_space<ub>>) outs(%uy : memref<16x256xf32, #hivm.address_space<ub>>)
      tile.mul ins(%uy, %w_wide : memref<16x256xf32, #hivm.address_space<ub>>, memref<16x256xf32, #hivm.address_space<ub>>) outs(%uy : memref<16x256xf32, #hivm.address_space<ub>>)
      tile.copy ins(%uy : memref<16x256xf32, #hivm.address_space<ub>>) outs(%y_tile : memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>)
    } {tile.num_stages = 2 : i64}
    func.return
  }
}
