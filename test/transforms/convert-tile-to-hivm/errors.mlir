// Copies the chip has no path for, and bad options, are diagnostics.
// RUN: ascend-opt %s -p 'convert-tile-to-hivm{chip=ascend910b}' --split-input-file --verify-diagnostics
// RUN: not ascend-opt %s -p 'convert-tile-to-hivm{chip=no-such-chip}' --split-input-file 2>&1 | filecheck %s --check-prefix=CHIP

// CHIP: unknown chip 'no-such-chip'
// CHIP-NOT: Traceback

func.func @cc_to_ub_on_910b() attributes {tile.kernel} {
  %c = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
  %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
  // expected-error @+1 {{from cc to ub has no hardware path on ascend910b}}
  tile.copy ins(%c : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u : memref<16x16xf32, #hivm.address_space<ub>>)
  return
}

// -----

func.func @ub_to_cbuf_on_910b() attributes {tile.kernel} {
  %u = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
  %l = memref.alloc() : memref<16x16xf32, #hivm.address_space<cbuf>>
  // expected-error @+1 {{from ub to cbuf has no hardware path on ascend910b}}
  tile.copy ins(%u : memref<16x16xf32, #hivm.address_space<ub>>) outs(%l : memref<16x16xf32, #hivm.address_space<cbuf>>)
  return
}

// -----

// expected-error @+1 {{'tile.grid' must be a positive integer, got 0 : i64}}
func.func @bad_grid() attributes {tile.kernel, tile.grid = 0 : i64} {
  return
}

// -----

func.func @bad_stages() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.num_stages' must be a positive integer, got 0 : i64}}
  scf.for %i = %c0 to %c1 step %c1 {
  } {tile.num_stages = 0 : i64}
  return
}
