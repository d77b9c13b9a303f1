// Row softmax of an m x c fp32 matrix, m and c known only at run time (twin of
// softmax_dyn.py; the runtime-shape twin of softmax.mlir): rows of at most 256 columns
// (x and y are m x c: their row pitch c is a runtime value), 4 blocks take the 16-row tiles
// t = block, block + 4, ... of the m rows; the last tile is partial. Every op works on
// views of the static 16x256 ub tiles of size rows x cols, so the max and the sum reduce
// over the valid length of each row and never read the unused part of the buffer:
//   m = max_j x[i, j];  e = exp(x - m);  s = sum_j e[i, j];  y = e / s
// Run it at any size: ascend-sim examples/softmax_dyn.mlir --bind m=37 --bind c=200.
builtin.module {
  func.func @softmax_dyn(%x: memref<?x?xf32, #hivm.address_space<gm>>, %y: memref<?x?xf32, #hivm.address_space<gm>>, %m: index, %c: index) attributes {tile.kernel, tile.grid = 4 : i64} {
    %c4 = arith.constant 4 : index
    %c15 = arith.constant 15 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %ux = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %row_max = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
    %row_sum = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
    %wide = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %ue = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %uy = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %cols = arith.minsi %c, %c256 : index
    %0 = arith.addi %m, %c15 : index
    %tiles = arith.divui %0, %c16 : index
    %1 = tile.block_idx : index
    scf.for %t = %1 to %tiles step %c4 {
      %row0 = arith.muli %t, %c16 : index
      %2 = arith.subi %m, %row0 : index
      %rows = arith.minsi %2, %c16 : index
      %vx = memref.subview %ux[0, 0] [%rows, %cols] [1, 1] : memref<16x256xf32, #hivm.address_space<ub>> to memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>
      %ve = memref.subview %ue[0, 0] [%rows, %cols] [1, 1] : memref<16x256xf32, #hivm.address_space<ub>> to memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>
      %vwide = memref.subview %wide[0, 0] [%rows, %cols] [1, 1] : memref<16x256xf32, #hivm.address_space<ub>> to memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>
      %vy = memref.subview %uy[0, 0] [%rows, %cols] [1, 1] : memref<16x256xf32, #hivm.address_space<ub>> to memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>
      %vmax = memref.subview %row_max[0, 0] [%rows, 1] [1, 1] : memref<16x1xf32, #hivm.address_space<ub>> to memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>
      %vsum = memref.subview %row_sum[0, 0] [%rows, 1] [1, 1] : memref<16x1xf32, #hivm.address_space<ub>> to memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>
      %xs = memref.subview %x[%row0, 0] [%rows, %cols] [1, 1] : memref<?x?xf32, #hivm.address_space<gm>> to memref<?x?xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
      %ys = memref.subview %y[%row0, 0] [%rows, %cols] [1, 1] : memref<?x?xf32, #hivm.address_space<gm>> to memref<?x?xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%xs : memref<?x?xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>) outs(%vx : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>)
      tile.reduce  <max> ins(%vx : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>) outs(%vmax : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>) dims = [1]
      tile.broadcast ins(%vmax : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>) outs(%vwide : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>) dims = [1]
      tile.sub ins(%vx, %vwide : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>, memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>) outs(%ve : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>)
      tile.exp ins(%ve : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>) outs(%ve : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>)
      tile.reduce  <sum> ins(%ve : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>) outs(%vsum : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>) dims = [1]
      tile.broadcast ins(%vsum : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>) outs(%vwide : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>) dims = [1]
      tile.div ins(%ve, %vwide : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>, memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>) outs(%vy : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>)
      tile.copy ins(%vy : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>) outs(%ys : memref<?x?xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>)
    } {tile.num_stages = 2 : i64}
    func.return
  }
}
