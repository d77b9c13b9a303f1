// Bad input (hivm): a tile-level kernel given to ascend-verify-sync, which passed it with nothing checked.
// ARGS: -p ascend-verify-sync
// ERROR: ascend-verify-sync works on hivm IR: run convert-tile-to-hivm first
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
