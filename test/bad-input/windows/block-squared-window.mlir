// Bad input (windows): a GM window at b * b * 128 (not affine in the block id, its size left computed as the DSL writes `x[b*b*128 : b*b*128 + 128]`) runs past the argument at block 3 of 4; only the simulator found it before.
// ERROR: dimension 0 reads up to index 1279 at block 3 (offset 1152, size 128, stride 1) but the source has size 1024 there
// ARGS: -p ascend-compile
module {
  func.func @sq(%x: memref<1024xf32, #hivm.address_space<gm>>, %y: memref<1024xf32, #hivm.address_space<gm>>) attributes {tile.kernel, tile.grid = 4 : i64} {
    %c128 = arith.constant 128 : index
    %b = tile.block_idx : index
    %u = memref.alloc() : memref<128xf32, #hivm.address_space<ub>>
    %0 = arith.muli %b, %b : index
    %1 = arith.muli %0, %c128 : index
    %2 = arith.muli %b, %b : index
    %3 = arith.muli %2, %c128 : index
    %4 = arith.addi %3, %c128 : index
    %5 = arith.subi %4, %1 : index
    %6 = memref.subview %x[%1] [%5] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    tile.copy ins(%6 : memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%u : memref<128xf32, #hivm.address_space<ub>>)
    %7 = arith.muli %b, %c128 : index
    %8 = memref.subview %y[%7] [128] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<128xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    tile.copy ins(%u : memref<128xf32, #hivm.address_space<ub>>) outs(%8 : memref<128xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
    func.return
  }
}
