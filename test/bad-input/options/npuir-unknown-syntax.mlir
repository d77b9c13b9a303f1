// Bad input (options): npuir syntax=bogus.
// ARGS: -p convert-tile-to-hivm -t npuir{syntax=bogus}
// ERROR: npuir: unknown syntax 'bogus' (one of auto, a5, default)
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
