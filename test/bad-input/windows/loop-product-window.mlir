// Bad input (windows): a window at i * j * 64 (a product of two loop variables, not affine) runs past the argument at the last iterations.
// ERROR: dimension 0 reads up to index 1087 at %i = 3, %j = 4 (offset 768, size 320, stride 1) but the source has size 1024 there
// ARGS: -p ascend-compile
module {
  func.func @k(%x: memref<1024xf32, #hivm.address_space<gm>>) attributes {tile.kernel, tile.grid = 1 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c64 = arith.constant 64 : index
    %u = memref.alloc() : memref<320xf32, #hivm.address_space<ub>>
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %j = %c1 to %c5 step %c1 {
        %ij = arith.muli %i, %j : index
        %off = arith.muli %ij, %c64 : index
        %xs = memref.subview %x[%off] [320] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<320xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
        tile.copy ins(%xs : memref<320xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%u : memref<320xf32, #hivm.address_space<ub>>)
      }
    }
    return
  }
}
