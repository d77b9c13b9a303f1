// Row softmax of a 256x256 fp32 matrix: 4 blocks of 64 rows, each a loop over 4 tiles
// of 16 rows kept whole in the unified buffer:
//   m = max_j x[i, j];  e = exp(x - m);  s = sum_j e[i, j];  y = e / s
// The row statistics are 16x1 tiles broadcast back along dim 1.
module {
  func.func @softmax(%x: memref<256x256xf32, #hivm.address_space<gm>>,
                     %y: memref<256x256xf32, #hivm.address_space<gm>>)
      attributes {tile.kernel, tile.grid = 4 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %block = tile.block_idx : index
    %base = arith.muli %block, %c64 : index
    %ux = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %row_max = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
    %row_sum = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
    %wide = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %ue = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %uy = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    scf.for %i = %c0 to %c4 step %c1 {
      %rows = arith.muli %i, %c16 : index
      %row0 = arith.addi %base, %rows : index
      %xs = memref.subview %x[%row0, 0] [16, 256] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      %ys = memref.subview %y[%row0, 0] [16, 256] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%xs : memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%ux : memref<16x256xf32, #hivm.address_space<ub>>)
      tile.reduce <max> ins(%ux : memref<16x256xf32, #hivm.address_space<ub>>) outs(%row_max : memref<16x1xf32, #hivm.address_space<ub>>) dims = [1]
      tile.broadcast ins(%row_max : memref<16x1xf32, #hivm.address_space<ub>>) outs(%wide : memref<16x256xf32, #hivm.address_space<ub>>) dims = [1]
      tile.sub ins(%ux, %wide : memref<16x256xf32, #hivm.address_space<ub>>, memref<16x256xf32, #hivm.address_space<ub>>) outs(%ue : memref<16x256xf32, #hivm.address_space<ub>>)
      tile.exp ins(%ue : memref<16x256xf32, #hivm.address_space<ub>>) outs(%ue : memref<16x256xf32, #hivm.address_space<ub>>)
      tile.reduce <sum> ins(%ue : memref<16x256xf32, #hivm.address_space<ub>>) outs(%row_sum : memref<16x1xf32, #hivm.address_space<ub>>) dims = [1]
      tile.broadcast ins(%row_sum : memref<16x1xf32, #hivm.address_space<ub>>) outs(%wide : memref<16x256xf32, #hivm.address_space<ub>>) dims = [1]
      tile.div ins(%ue, %wide : memref<16x256xf32, #hivm.address_space<ub>>, memref<16x256xf32, #hivm.address_space<ub>>) outs(%uy : memref<16x256xf32, #hivm.address_space<ub>>)
      tile.copy ins(%uy : memref<16x256xf32, #hivm.address_space<ub>>) outs(%ys : memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>)
    } {tile.num_stages = 2 : i64}
    return
  }
}
