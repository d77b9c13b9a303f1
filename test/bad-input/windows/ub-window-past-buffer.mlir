// Bad input (windows): a UB window indexed by the loop variable runs past its buffer (i = 3: 384..511 of 384).
// ERROR: dimension 0 reads up to index 511 over the enclosing loops' range (offset up to 384, size 128, stride 1) but the source has size 384 there
// SIM:
module {
  func.func @k(%x: memref<512xf32, #hivm.address_space<gm>>) attributes {tile.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %u = memref.alloc() : memref<384xf32, #hivm.address_space<ub>>
    scf.for %i = %c0 to %c4 step %c1 {
      %off = arith.muli %i, %c128 : index
      %xs = memref.subview %x[%off] [128] [1] : memref<512xf32, #hivm.address_space<gm>> to memref<128xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %us = memref.subview %u[%off] [128] [1] : memref<384xf32, #hivm.address_space<ub>> to memref<128xf32, strided<[1], offset: ?>, #hivm.address_space<ub>>
      tile.copy ins(%xs : memref<128xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%us : memref<128xf32, strided<[1], offset: ?>, #hivm.address_space<ub>>)
    }
    return
  }
}
