// LayerNorm of a 256x256 fp32 matrix over its rows (this file is the twin of layernorm.py):
//     mean = sum(x) / n;  xc = x - mean;  var = sum(xc^2) / n;  y = xc * rsqrt(var + eps) * g + b
// 4 blocks of 64 rows, each a loop over 4 tiles of 16 rows; g and b are loaded once and
// broadcast to the tile's rows.
module {
  func.func @layernorm(%x: memref<256x256xf32, #hivm.address_space<gm>>, %gamma: memref<1x256xf32, #hivm.address_space<gm>>, %beta: memref<1x256xf32, #hivm.address_space<gm>>, %y: memref<256x256xf32, #hivm.address_space<gm>>) attributes {tile.kernel, tile.grid = 4 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %cst = arith.constant 1.000000e-05 : f32
    %cst_1 = arith.constant 3.906250e-03 : f32
    %0 = tile.block_idx : index
    %base = arith.muli %0, %c64 : index
    %g_row = memref.alloc() : memref<1x256xf32, #hivm.address_space<ub>>
    %b_row = memref.alloc() : memref<1x256xf32, #hivm.address_space<ub>>
    %g_wide = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %b_wide = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %ux = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %xc = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %sq = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %mean = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
    %rstd = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
    %wide = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %uy = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    tile.copy ins(%gamma : memref<1x256xf32, #hivm.address_space<gm>>) outs(%g_row : memref<1x256xf32, #hivm.address_space<ub>>)
    tile.copy ins(%beta : memref<1x256xf32, #hivm.address_space<gm>>) outs(%b_row : memref<1x256xf32, #hivm.address_space<ub>>)
    tile.broadcast ins(%g_row : memref<1x256xf32, #hivm.address_space<ub>>) outs(%g_wide : memref<16x256xf32, #hivm.address_space<ub>>) dims = [0]
    tile.broadcast ins(%b_row : memref<1x256xf32, #hivm.address_space<ub>>) outs(%b_wide : memref<16x256xf32, #hivm.address_space<ub>>) dims = [0]
    scf.for %i = %c0 to %c4 step %c1 {
      %1 = arith.muli %i, %c16 : index
      %row0 = arith.addi %base, %1 : index
      %x_tile = memref.subview %x[%row0, 0] [16, 256] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      %y_tile = memref.subview %y[%row0, 0] [16, 256] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%x_tile : memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%ux : memref<16x256xf32, #hivm.address_space<ub>>)
      tile.reduce <sum> ins(%ux : memref<16x256xf32, #hivm.address_space<ub>>) outs(%mean : memref<16x1xf32, #hivm.address_space<ub>>) dims = [1]
      tile.mul ins(%mean, %cst_1 : memref<16x1xf32, #hivm.address_space<ub>>, f32) outs(%mean : memref<16x1xf32, #hivm.address_space<ub>>)
      tile.broadcast ins(%mean : memref<16x1xf32, #hivm.address_space<ub>>) outs(%wide : memref<16x256xf32, #hivm.address_space<ub>>) dims = [1]
      tile.sub ins(%ux, %wide : memref<16x256xf32, #hivm.address_space<ub>>, memref<16x256xf32, #hivm.address_space<ub>>) outs(%xc : memref<16x256xf32, #hivm.address_space<ub>>)
      tile.mul ins(%xc, %xc : memref<16x256xf32, #hivm.address_space<ub>>, memref<16x256xf32, #hivm.address_space<ub>>) outs(%sq : memref<16x256xf32, #hivm.address_space<ub>>)
      tile.reduce <sum> ins(%sq : memref<16x256xf32, #hivm.address_space<ub>>) outs(%rstd : memref<16x1xf32, #hivm.address_space<ub>>) dims = [1]
      tile.mul ins(%rstd, %cst_1 : memref<16x1xf32, #hivm.address_space<ub>>, f32) outs(%rstd : memref<16x1xf32, #hivm.address_space<ub>>)
      tile.add ins(%rstd, %cst : memref<16x1xf32, #hivm.address_space<ub>>, f32) outs(%rstd : memref<16x1xf32, #hivm.address_space<ub>>)
      tile.rsqrt ins(%rstd : memref<16x1xf32, #hivm.address_space<ub>>) outs(%rstd : memref<16x1xf32, #hivm.address_space<ub>>)
      tile.broadcast ins(%rstd : memref<16x1xf32, #hivm.address_space<ub>>) outs(%wide : memref<16x256xf32, #hivm.address_space<ub>>) dims = [1]
      tile.mul ins(%xc, %wide : memref<16x256xf32, #hivm.address_space<ub>>, memref<16x256xf32, #hivm.address_space<ub>>) outs(%uy : memref<16x256xf32, #hivm.address_space<ub>>)
      tile.mul ins(%uy, %g_wide : memref<16x256xf32, #hivm.address_space<ub>>, memref<16x256xf32, #hivm.address_space<ub>>) outs(%uy : memref<16x256xf32, #hivm.address_space<ub>>)
      tile.add ins(%uy, %b_wide : memref<16x256xf32, #hivm.address_space<ub>>, memref<16x256xf32, #hivm.address_space<ub>>) outs(%uy : memref<16x256xf32, #hivm.address_space<ub>>)
      tile.copy ins(%uy : memref<16x256xf32, #hivm.address_space<ub>>) outs(%y_tile : memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>)
    } {tile.num_stages = 2 : i64}
    func.return
  }
}
