// Bad input (chip-files): a loop of 3 stages on a chip file with 2 event ids per pipe pair: the message named the 950 it extends, which has 8.
// ARGS: -p 'ascend-compile{chip-file="%S/../Inputs/two-events.toml"}'
// ERROR: num_stages 3 is more than the 2 buffer versions ascend950 of two-events.toml can synchronise
module {
  func.func @k(%g: memref<64xf32, #hivm.address_space<gm>>) attributes {tile.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    scf.for %i = %c0 to %c4 step %c1 {
      %c16 = arith.constant 16 : index
      %o = arith.muli %i, %c16 : index
      %s = memref.subview %g[%o] [16] [1] : memref<64xf32, #hivm.address_space<gm>> to memref<16xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%s : memref<16xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    } {tile.num_stages = 3 : i64}
    return
  }
}
