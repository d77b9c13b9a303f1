// Bad input (options): chip= and --chip with nothing after them (an unset shell variable): every pass took it as no option and compiled for the default chip.
// ARGS: -p 'ascend-compile{chip=""}'
// SIM: --chip ''
// ERROR: is empty (a built-in chip: ascend950, ascend910b; or a chip file)
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) attributes {tile.kernel} {
    %u = memref.alloc() : memref<16xf32, #hivm.address_space<ub>>
    tile.copy ins(%g : memref<16xf32, #hivm.address_space<gm>>) outs(%u : memref<16xf32, #hivm.address_space<ub>>)
    tile.copy ins(%u : memref<16xf32, #hivm.address_space<ub>>) outs(%g : memref<16xf32, #hivm.address_space<gm>>)
    return
  }
}
