// RMSNorm of an m x c fp32 matrix, m and c known only at run time (twin of rmsnorm_dyn.py;
// the runtime-shape twin of rmsnorm.mlir): y = x / sqrt(mean(x^2) + eps) * w over rows of
// c <= 256 columns (x and y are m x c: their row pitch c is a runtime value). 4 blocks take the 16-row tiles t = block, block + 4, ...
// of the m rows; the last is partial. Every op works on rows x cols views of the static
// 16x256 ub tiles: the sum of squares reduces over the valid length of each row (never the
// unused part of the buffer) and the mean divides by the runtime c, not the buffer width.
// Run it at any size: ascend-sim examples/rmsnorm_dyn.mlir --bind m=37 --bind c=200.
builtin.module {
  func.func @rmsnorm_dyn(%x: memref<?x?xf32, #hivm.address_space<gm>>, %w: memref<1x256xf32, #hivm.address_space<gm>>, %y: memref<?x?xf32, #hivm.address_space<gm>>, %m: index, %c: index) attributes {tile.kernel, tile.grid = 4 : i64} {
    %c4 = arith.constant 4 : index
    %c15 = arith.constant 15 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %cst = arith.constant 1.000000e-06 : f32
    %cst_1 = arith.constant 1.000000e+00 : f32
    %w_row = memref.alloc() : memref<1x256xf32, #hivm.address_space<ub>>
    %w_wide = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %ux = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %sq = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %ms = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
    %wide = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %uy = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %cols = arith.minsi %c, %c256 : index
    %0 = arith.index_cast %cols : index to i64
    %1 = arith.sitofp %0 : i64 to f32
    %inv_c = arith.divf %cst_1, %1 : f32
    tile.copy ins(%w : memref<1x256xf32, #hivm.address_space<gm>>) outs(%w_row : memref<1x256xf32, #hivm.address_space<ub>>)
    tile.broadcast ins(%w_row : memref<1x256xf32, #hivm.address_space<ub>>) outs(%w_wide : memref<16x256xf32, #hivm.address_space<ub>>) dims = [0]
    %2 = arith.addi %m, %c15 : index
    %tiles = arith.divui %2, %c16 : index
    %3 = tile.block_idx : index
    scf.for %t = %3 to %tiles step %c4 {
      %row0 = arith.muli %t, %c16 : index
      %4 = arith.subi %m, %row0 : index
      %rows = arith.minsi %4, %c16 : index
      %vx = memref.subview %ux[0, 0] [%rows, %cols] [1, 1] : memref<16x256xf32, #hivm.address_space<ub>> to memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>
      %vsq = memref.subview %sq[0, 0] [%rows, %cols] [1, 1] : memref<16x256xf32, #hivm.address_space<ub>> to memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>
      %vwide = memref.subview %wide[0, 0] [%rows, %cols] [1, 1] : memref<16x256xf32, #hivm.address_space<ub>> to memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>
      %vy = memref.subview %uy[0, 0] [%rows, %cols] [1, 1] : memref<16x256xf32, #hivm.address_space<ub>> to memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>
      %vw = memref.subview %w_wide[0, 0] [%rows, %cols] [1, 1] : memref<16x256xf32, #hivm.address_space<ub>> to memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>
      %vms = memref.subview %ms[0, 0] [%rows, 1] [1, 1] : memref<16x1xf32, #hivm.address_space<ub>> to memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>
      %xs = memref.subview %x[%row0, 0] [%rows, %cols] [1, 1] : memref<?x?xf32, #hivm.address_space<gm>> to memref<?x?xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
      %ys = memref.subview %y[%row0, 0] [%rows, %cols] [1, 1] : memref<?x?xf32, #hivm.address_space<gm>> to memref<?x?xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%xs : memref<?x?xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>) outs(%vx : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>)
      tile.mul ins(%vx, %vx : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>, memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>) outs(%vsq : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>)
      tile.reduce  <sum> ins(%vsq : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>) outs(%vms : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>) dims = [1]
      tile.mul ins(%vms, %inv_c : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>, f32) outs(%vms : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>)
      tile.add ins(%vms, %cst : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>, f32) outs(%vms : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>)
      tile.rsqrt ins(%vms : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>) outs(%vms : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>)
      tile.broadcast ins(%vms : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>) outs(%vwide : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>) dims = [1]
      tile.mul ins(%vx, %vwide : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>, memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>) outs(%vy : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>)
      tile.mul ins(%vy, %vw : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>, memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>) outs(%vy : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>)
      tile.copy ins(%vy : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>) outs(%ys : memref<?x?xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>)
    } {tile.num_stages = 2 : i64}
    func.return
  }
}
