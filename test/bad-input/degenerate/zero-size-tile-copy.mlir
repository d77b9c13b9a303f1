// Bad input (degenerate): a copy from a 0-element GM tile into a 16-element buffer.
// ARGS: -p ascend-compile
// ERROR: source and dest shapes differ: 0 vs 16
module {
  func.func @k(%g: memref<0xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<0xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    return
  }
}
