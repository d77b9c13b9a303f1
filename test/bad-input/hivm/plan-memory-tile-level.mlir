// Bad input (hivm): a tile-level kernel given to ascend-plan-memory, which left it half planned.
// ARGS: -p ascend-plan-memory
// ERROR: ascend-plan-memory works on hivm IR: run convert-tile-to-hivm first
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
