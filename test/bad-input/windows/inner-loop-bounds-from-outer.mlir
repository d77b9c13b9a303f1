// Bad input (windows): a triangular nest, the inner loop's bound set by the outer variable: j reaches 4, its 64-wide row window ends at 319 of 256.
// ERROR: dimension 0 reads up to index 319 over the enclosing loops' range
module {
  func.func @k(%x: memref<256xf32, #hivm.address_space<gm>>) attributes {tile.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %c64 = arith.constant 64 : index
    %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    scf.for %i = %c0 to %c5 step %c1 {
      %n = arith.addi %i, %c1 : index
      scf.for %j = %c0 to %n step %c1 {
        %off = arith.muli %j, %c64 : index
        %xs = memref.subview %x[%off] [64] [1] : memref<256xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
        tile.copy ins(%xs : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
      }
    }
    return
  }
}
