// Bad input (scopes): a kernel's memref argument in ub (found by
// bench/safety/fuzz_inputs.py: vecadd with every gm made ub). ascend-compile took it
// and the simulator failed with an unlocated "no input for argument arg0"; a kernel is
// launched with GM tensors, on-chip buffers are allocated inside it (refused by
// ascend-compile; parsing alone accepts it, as tests of single ops use such kernels).
// ARGS: -p ascend-compile
// SIM:
// ERROR: kernel argument %x is in ub
module {
  func.func @k(%x: memref<512xf32, #hivm.address_space<ub>>,
               %y: memref<512xf32, #hivm.address_space<gm>>) attributes {tile.kernel, tile.grid = 1 : i64} {
    tile.copy ins(%x : memref<512xf32, #hivm.address_space<ub>>) outs(%y : memref<512xf32, #hivm.address_space<gm>>)
    return
  }
}
