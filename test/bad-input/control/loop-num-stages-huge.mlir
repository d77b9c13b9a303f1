// Bad input (control): a loop's own tile.num_stages far past the event ids that synchronise its versions.
// ARGS: -p ascend-compile
// ERROR: num_stages 1000000 is more than the 8 buffer versions ascend950 can synchronise
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
    } {tile.num_stages = 1000000 : i64}
    return
  }
}
