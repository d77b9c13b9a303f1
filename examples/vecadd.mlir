// z = x + y on 32768 fp32 elements: 8 blocks, each a loop over 8 tiles of 512 elements
// staged through the unified buffer (ub). The loop may keep up to 2 versions of each
// buffer (tile.num_stages), so the loads of tile i+1 can overlap the add of tile i.
module {
  func.func @vecadd(%x: memref<32768xf32, #hivm.address_space<gm>>,
                    %y: memref<32768xf32, #hivm.address_space<gm>>,
                    %z: memref<32768xf32, #hivm.address_space<gm>>)
      attributes {tile.kernel, tile.grid = 8 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c512 = arith.constant 512 : index
    %c4096 = arith.constant 4096 : index
    %block = tile.block_idx : index
    %base = arith.muli %block, %c4096 : index
    %ux = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
    %uy = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
    %uz = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
    scf.for %i = %c0 to %c8 step %c1 {
      %tile = arith.muli %i, %c512 : index
      %off = arith.addi %base, %tile : index
      %xs = memref.subview %x[%off] [512] [1] : memref<32768xf32, #hivm.address_space<gm>> to memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %ys = memref.subview %y[%off] [512] [1] : memref<32768xf32, #hivm.address_space<gm>> to memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %zs = memref.subview %z[%off] [512] [1] : memref<32768xf32, #hivm.address_space<gm>> to memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%xs : memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux : memref<512xf32, #hivm.address_space<ub>>)
      tile.copy ins(%ys : memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%uy : memref<512xf32, #hivm.address_space<ub>>)
      tile.add ins(%ux, %uy : memref<512xf32, #hivm.address_space<ub>>, memref<512xf32, #hivm.address_space<ub>>) outs(%uz : memref<512xf32, #hivm.address_space<ub>>)
      tile.copy ins(%uz : memref<512xf32, #hivm.address_space<ub>>) outs(%zs : memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
    } {tile.num_stages = 2 : i64}
    return
  }
}
