// An op that reads or writes memory beside the tile/hivm ops (memref.store, memref.copy,
// memref.load) is invisible to the scheduler and to ascend-insert-sync: the compiled
// kernel carried it with no flag against the DMA pipes (ascend-opt exited 0 and printed a
// racing kernel). Refused at the op; already-synced hivm keeps its hand-placed flags.
// RUN: ascend-opt %s -p ascend-compile --split-input-file --verify-diagnostics

func.func @store_into_ub(%x: memref<64xf32, #hivm.address_space<gm>>, %y: memref<64xf32, #hivm.address_space<gm>>) attributes {tile.kernel} {
  %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  tile.copy ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
  // expected-error @+1 {{'memref.store' op accesses memory outside the ops ascend-compile schedules and syncs (tile.* and hivm.hir.* ops)}}
  memref.store %f, %u[%c0] : memref<64xf32, #hivm.address_space<ub>>
  tile.copy ins(%u : memref<64xf32, #hivm.address_space<ub>>) outs(%y : memref<64xf32, #hivm.address_space<gm>>)
  return
}

// -----

func.func @copy_gm_to_ub(%x: memref<64xf32, #hivm.address_space<gm>>, %y: memref<64xf32, #hivm.address_space<gm>>) attributes {tile.kernel} {
  %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  // expected-error @+1 {{'memref.copy' op accesses memory outside the ops ascend-compile schedules and syncs}}
  memref.copy %x, %u : memref<64xf32, #hivm.address_space<gm>> to memref<64xf32, #hivm.address_space<ub>>
  tile.copy ins(%u : memref<64xf32, #hivm.address_space<ub>>) outs(%y : memref<64xf32, #hivm.address_space<gm>>)
  return
}

// -----

func.func @load_in_loop(%x: memref<64xf32, #hivm.address_space<gm>>, %y: memref<64xf32, #hivm.address_space<gm>>) attributes {tile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %v = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %c4 step %c1 {
    tile.copy ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
    // expected-error @+1 {{'memref.load' op accesses memory outside the ops ascend-compile schedules and syncs}}
    %s = memref.load %u[%c0] : memref<64xf32, #hivm.address_space<ub>>
    tile.mul ins(%u, %s : memref<64xf32, #hivm.address_space<ub>>, f32) outs(%v : memref<64xf32, #hivm.address_space<ub>>)
    tile.copy ins(%v : memref<64xf32, #hivm.address_space<ub>>) outs(%y : memref<64xf32, #hivm.address_space<gm>>)
  }
  return
}
