// Row maxima of an m x 256 matrix: m rows and c <= 256 columns at run time (16-row blocks,
// the last partial; rows read through partial views of a static 16x256 ub tile). The
// CCE twin of rowmax_dyn.mlir: a static row length keeps the GM row stride static.
module {
  func.func @rowmax_dyn(%x: memref<?x256xf32, #hivm.address_space<gm>>, %y: memref<?x1xf32, #hivm.address_space<gm>>,
                        %m: index, %c: index) attributes {tile.kernel, tile.grid = 1 : i64} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %u = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %r = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
    %cols = arith.minsi %c, %c256 : index
    scf.for %i = %c0 to %m step %c16 {
      %rest = arith.subi %m, %i : index
      %rows = arith.minsi %rest, %c16 : index
      %xs = memref.subview %x[%i, 0] [%rows, %cols] [1, 1] : memref<?x256xf32, #hivm.address_space<gm>> to memref<?x?xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      %us = memref.subview %u[0, 0] [%rows, %cols] [1, 1] : memref<16x256xf32, #hivm.address_space<ub>> to memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>
      %rs = memref.subview %r[0, 0] [%rows, 1] [1, 1] : memref<16x1xf32, #hivm.address_space<ub>> to memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>
      %ys = memref.subview %y[%i, 0] [%rows, 1] [1, 1] : memref<?x1xf32, #hivm.address_space<gm>> to memref<?x1xf32, strided<[1, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%xs : memref<?x?xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%us : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>)
      tile.reduce <max> ins(%us : memref<?x?xf32, strided<[256, 1]>, #hivm.address_space<ub>>) outs(%rs : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>) dims = [1]
      tile.copy ins(%rs : memref<?x1xf32, strided<[1, 1]>, #hivm.address_space<ub>>) outs(%ys : memref<?x1xf32, strided<[1, 1], offset: ?>, #hivm.address_space<gm>>)
    } {tile.num_stages = 2 : i64}
    return
  }
}
