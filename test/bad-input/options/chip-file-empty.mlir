// Bad input (options): an empty chip-file= on a pass of its own (not through ascend-compile).
// ARGS: -p 'convert-tile-to-hivm,ascend-estimate-latency{chip-file=""}'
// ERROR: is empty (a built-in chip: ascend950, ascend910b; or a chip file)
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) attributes {tile.kernel} {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    tile.copy ins(%u : memref<16xf32, #hivm.address_space<ub>>) outs(%g : memref<16xf32, #hivm.address_space<gm>>)
    return
  }
}
