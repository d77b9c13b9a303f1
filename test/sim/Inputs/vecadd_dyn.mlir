// z = x + y over n fp32 elements (n a runtime argument, x/y/z of runtime length): 8 blocks
// take tiles t = block, block + 8, ... of 512 elements; the last tile is partial
// (min(512, n - 512 t) elements through subviews of the static ub buffers).
module {
  func.func @vecadd_dyn(%x: memref<?xf32, #hivm.address_space<gm>>,
                    %y: memref<?xf32, #hivm.address_space<gm>>,
                    %z: memref<?xf32, #hivm.address_space<gm>>,
                    %n: index)
      attributes {tile.kernel, tile.grid = 8 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c512 = arith.constant 512 : index
    %block = tile.block_idx : index
    %ux = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
    %uy = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
    %uz = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
    %ntiles0 = arith.addi %n, %c512 : index
    %ntiles1 = arith.subi %ntiles0, %c1 : index
    %ntiles = arith.divui %ntiles1, %c512 : index
    scf.for %t = %block to %ntiles step %c8 {
      %off = arith.muli %t, %c512 : index
      %rest = arith.subi %n, %off : index
      %len = arith.minsi %rest, %c512 : index
      %xs = memref.subview %x[%off] [%len] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %ys = memref.subview %y[%off] [%len] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %zs = memref.subview %z[%off] [%len] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %vx = memref.subview %ux[0] [%len] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      %vy = memref.subview %uy[0] [%len] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      %vz = memref.subview %uz[0] [%len] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      tile.copy ins(%xs : memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%vx : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>)
      tile.copy ins(%ys : memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%vy : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>)
      tile.add ins(%vx, %vy : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>, memref<?xf32, strided<[1]>, #hivm.address_space<ub>>) outs(%vz : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>)
      tile.copy ins(%vz : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>) outs(%zs : memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
    } {tile.num_stages = 2 : i64}
    return
  }
}
