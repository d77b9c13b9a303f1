// Bad input (syntax): an i64 array attribute holding a number wider than 64 bits (found
// by bench/safety/fuzz_inputs.py: a broadcast's dims = [1] made 2^64). xDSL's struct.pack
// raised struct.error, an internal error.
// SIM:
// ERROR: a number here does not fit its attribute's integer type
module {
  func.func @k(%x: memref<16x256xf32, #hivm.address_space<gm>>) attributes {tile.kernel, tile.grid = 1 : i64} {
    %ms = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
    %wide = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    tile.broadcast ins(%ms : memref<16x1xf32, #hivm.address_space<ub>>) outs(%wide : memref<16x256xf32, #hivm.address_space<ub>>) dims = [18446744073709551616]
    tile.copy ins(%wide : memref<16x256xf32, #hivm.address_space<ub>>) outs(%x : memref<16x256xf32, #hivm.address_space<gm>>)
    return
  }
}
