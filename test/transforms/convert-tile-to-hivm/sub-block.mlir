// RUN: ascend-opt %s -p convert-tile-to-hivm | filecheck %s

// tile.sub_block_idx (which of the two vector cores runs this copy of the vector code)
// lowers to hivm.hir.get_sub_block_idx and an index cast, like tile.block_idx.

// CHECK:      %[[S:.*]] = hivm.hir.get_sub_block_idx -> i64
// CHECK-NEXT: %[[I:.*]] = arith.index_cast %[[S]] : i64 to index
// CHECK-NEXT: %{{.*}} = arith.muli %[[I]], %{{.*}} : index
func.func @rows(%c: memref<32x16xf32, #hivm.address_space<gm>>) attributes {tile.kernel} {
  %c16 = arith.constant 16 : index
  %r = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
  %sub = tile.sub_block_idx : index
  %row = arith.muli %sub, %c16 : index
  %cs = memref.subview %c[%row, 0] [16, 16] [1, 1] : memref<32x16xf32, #hivm.address_space<gm>> to memref<16x16xf32, strided<[16, 1], offset: ?>, #hivm.address_space<gm>>
  tile.copy ins(%r : memref<16x16xf32, #hivm.address_space<ub>>) outs(%cs : memref<16x16xf32, strided<[16, 1], offset: ?>, #hivm.address_space<gm>>)
  return
}
