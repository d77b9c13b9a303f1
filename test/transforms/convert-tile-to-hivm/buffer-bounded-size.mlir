// A partial tile whose size has no static bound of its own (`n - off` without a `min`):
// whether it fits its buffer cannot be decided before the kernel runs, and the lowering
// says so at the view (the reference reports a larger runtime size when it runs). A size
// bounded by a `min` against the tile, as the examples write it, gets no remark.
// RUN: ascend-opt %s -p convert-tile-to-hivm -o /dev/null 2>&1 | filecheck %s
// CHECK: buffer-bounded-size.mlir:[[# @LINE + 8]]:3: remark: partial tile size in dim 0 has no static bound of its own: only its buffer (16 elements) bounds it
// CHECK-NOT: remark
func.func @k(%x: memref<?xf32, #hivm.address_space<gm>>, %n: index, %off: index) attributes {tile.kernel} {
  %c16 = arith.constant 16 : index
  %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
  %w = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
  %rest = arith.subi %n, %off : index
  %len = arith.minsi %rest, %c16 : index
  %v = memref.subview %u[0] [%rest] [1] : memref<16xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
  %bounded = memref.subview %w[0] [%len] [1] : memref<16xf32, #hivm.address_space<ub>> to memref<?xf32, strided<[1]>, #hivm.address_space<ub>>
  %xs = memref.subview %x[%off] [%rest] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
  %xb = memref.subview %x[%off] [%len] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
  tile.copy ins(%xs : memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%v : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>)
  tile.copy ins(%xb : memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%bounded : memref<?xf32, strided<[1]>, #hivm.address_space<ub>>)
  return
}
