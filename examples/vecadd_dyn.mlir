// z = x + y over n fp32 elements, n known only at run time (twin of vecadd_dyn.py): 8 blocks
// take the 512-element tiles t = block, block + 8, ... of the n elements; the last tile is
// partial: min(512, n - 512 t) elements through subviews of the static ub buffers. Run it at
// any size: ascend-sim examples/vecadd_dyn.mlir --bind n=1000 (x, y, z default to n elements).
builtin.module {
  func.func @vecadd_dyn(%x: memref<?xf32, #hivm.address_space<gm>>, %y: memref<?xf32, #hivm.address_space<gm>>, %z: memref<?xf32, #hivm.address_space<gm>>, %n: index) attributes {tile.kernel, tile.grid = 8 : i64} {
    %c8 = arith.constant 8 : index
    %c511 = arith.constant 511 : index
    %c512 = arith.constant 512 : index
    %ux = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
    %uy = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
    %uz = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
    %0 = arith.addi %n, %c511 : index
    %tiles = arith.divui %0, %c512 : index
    %1 = tile.block_idx : index
    scf.for %t = %1 to %tiles step %c8 {
      %off = arith.muli %t, %c512 : index
      %2 = arith.subi %n, %off : index
      %size = arith.minsi %2, %c512 : index
      %3 = memref.subview %x[%off] [%size] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %4 = memref.subview %ux[0] [%size] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      tile.copy ins(%3 : memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%4 : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>)
      %5 = memref.subview %y[%off] [%size] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %6 = memref.subview %uy[0] [%size] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      tile.copy ins(%5 : memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%6 : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>)
      %7 = memref.subview %ux[0] [%size] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      %8 = memref.subview %uy[0] [%size] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      %9 = memref.subview %uz[0] [%size] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      tile.add ins(%7, %8 : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>, memref<?xf32, strided<[1]>, #hivm.address_space<ub>>) outs(%9 : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>)
      %10 = memref.subview %uz[0] [%size] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
      %11 = memref.subview %z[%off] [%size] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%10 : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>) outs(%11 : memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
    } {tile.num_stages = 2 : i64}
    func.return
  }
}
