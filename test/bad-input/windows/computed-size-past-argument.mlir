// Bad input (windows): a window whose size is computed from constants alone (21 * 7 * 7 = 1029 elements from offset 21) runs past the argument; its size is no attribute, so only the simulator found it before.
// ERROR: dimension 0 reads up to index 1049 (offset 21, size 1029, stride 1) but the source has size 1024 there
// ARGS: -p ascend-compile
module {
  func.func @k(%x: memref<1024xf32, #hivm.address_space<gm>>) attributes {tile.kernel, tile.grid = 1 : i64} {
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %u = memref.alloc() : memref<2048xf32, #hivm.address_space<ub>>
    %off = arith.muli %c7, %c3 : index
    %s0 = arith.muli %off, %c7 : index
    %size = arith.muli %s0, %c7 : index
    %xs = memref.subview %x[%off] [%size] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    %us = memref.subview %u[0] [%size] [1] : memref<2048xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
    tile.copy ins(%xs : memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%us : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>)
    return
  }
}
