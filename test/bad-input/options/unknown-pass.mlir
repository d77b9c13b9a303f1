// Bad input (options): no pass of that name.
// ARGS: -p no-such-pass
// ERROR: invalid pass pipeline: Unrecognized passes: ['no-such-pass']
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
