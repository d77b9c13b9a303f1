// Bad input (degenerate): tile.kernel on a function declaration: ascend-compile made it
// a device entry with no code (exit 0), ascend-sim said only that the module had no
// function to simulate, with no location.
// ARGS: -p ascend-compile
// SIM:
// ERROR: 'tile.kernel' marks a declaration: a kernel needs a body
module {
  func.func private @k(%x: memref<16xf32, #hivm.address_space<gm>>) attributes {tile.kernel}
}
