// RUN: ascend-opt %s -p ascend-insert-barrier-sync --verify-diagnostics

// The pass only knows the pipes of hivm ops: tile ops left in the input are an error,
// not silently unsynchronised.

func.func @not_lowered(%x: memref<64xf32, #hivm.address_space<gm>>) {
  %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  // expected-error @+1 {{ascend-insert-barrier-sync works on hivm IR: run convert-tile-to-hivm first}}
  tile.copy ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
  return
}
