// Bad input (windows): a GM window moved by the block id and the loop variable runs past the argument (grid 2, 3 steps of 256 per block of 512).
// ERROR: dimension 0 reads up to index 1279 over the enclosing loops' range (offset up to 1024, size 256, stride 1) but the source has size 1024 there
// ARGS: -p ascend-compile
module {
  func.func @k(%x: memref<1024xf32, #hivm.address_space<gm>>) attributes {tile.kernel, tile.grid = 2 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %b = tile.block_idx : index
    %base = arith.muli %b, %c512 : index
    %u = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
    scf.for %i = %c0 to %c3 step %c1 {
      %t = arith.muli %i, %c256 : index
      %off = arith.addi %base, %t : index
      %xs = memref.subview %x[%off] [256] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%xs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%u : memref<256xf32, #hivm.address_space<ub>>)
    }
    return
  }
}
