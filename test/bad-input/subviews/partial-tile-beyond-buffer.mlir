// Bad input (subviews): a partial tile whose runtime size is bounded by min(600, ...) views a 512-element buffer.
// ARGS: -p ascend-compile
// SIM: --bind n=100
// ERROR: partial tile size can reach 600 in dim 0, beyond its buffer (512 elements from the offset of memref<512xf32, #hivm.address_space<ub>>)
module {
  func.func @k(%x: memref<?xf32, #hivm.address_space<gm>>, %n: index) attributes {tile.kernel} {
    %c600 = arith.constant 600 : index
    %u = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
    %len = arith.minsi %n, %c600 : index
    %xs = memref.subview %x[0] [%len] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<?xf32, strided<[1]>, #hivm.address_space<gm>>
    %v = memref.subview %u[0] [%len] [1] : memref<512xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
    tile.copy ins(%xs : memref<?xf32, strided<[1]>, #hivm.address_space<gm>>) outs(%v : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>)
    return
  }
}
