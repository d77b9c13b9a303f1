// Windows whose offsets are not affine in the block id are checked at each block
// (views.enumerated_values), and only there: in bounds at every block, or behind an
// `if` that keeps the op from the blocks where they would not be, they compile.
// RUN: ascend-opt %s -p ascend-compile | filecheck %s
// CHECK: hivm.hir.load
// CHECK: hivm.hir.load
module {
  func.func @sq(%x: memref<1024xf32, #hivm.address_space<gm>>, %y: memref<1024xf32, #hivm.address_space<gm>>) attributes {tile.kernel, tile.grid = 4 : i64} {
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %b = tile.block_idx : index
    %u = memref.alloc() : memref<128xf32, #hivm.address_space<ub>>
    %bb = arith.muli %b, %b : index
    %off = arith.muli %bb, %c64 : index
    %xs = memref.subview %x[%off] [128] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<128xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    tile.copy ins(%xs : memref<128xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%u : memref<128xf32, #hivm.address_space<ub>>)
    %low = arith.cmpi ult, %b, %c2 : index
    scf.if %low {
      %far = arith.muli %bb, %c512 : index
      %xf = memref.subview %x[%far] [128] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<128xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%xf : memref<128xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%u : memref<128xf32, #hivm.address_space<ub>>)
    }
    %yo = arith.muli %b, %c128 : index
    %ys = memref.subview %y[%yo] [128] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<128xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    tile.copy ins(%u : memref<128xf32, #hivm.address_space<ub>>) outs(%ys : memref<128xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
    func.return
  }
}
