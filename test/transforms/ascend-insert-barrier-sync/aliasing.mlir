// RUN: ascend-opt %s --split-input-file -p ascend-insert-barrier-sync | filecheck %s

// After memory planning, buffers are pointer_casts at byte offsets: two of one address
// space alias exactly when their byte ranges overlap (the alias analysis), so the load
// into %a (bytes 0..255) and the vabs on %b (bytes 256..511) need no barrier, but the
// store of %c (bytes 0..255 again, i.e. %a) does.

// CHECK-LABEL: func.func @planned
// CHECK:       hivm.hir.load ins(%x
// CHECK-NEXT:  hivm.hir.vabs ins(%b
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  hivm.hir.store
func.func @planned(%x: memref<64xf32, #hivm.address_space<gm>>, %z: memref<64xf32, #hivm.address_space<gm>>) {
  %c0 = arith.constant 0 : i64
  %c256 = arith.constant 256 : i64
  %a = hivm.hir.pointer_cast(%c0) : memref<64xf32, #hivm.address_space<ub>>
  %b = hivm.hir.pointer_cast(%c256) : memref<64xf32, #hivm.address_space<ub>>
  %c = hivm.hir.pointer_cast(%c0) : memref<64xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%a : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.vabs ins(%b : memref<64xf32, #hivm.address_space<ub>>) outs(%b : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.store ins(%c : memref<64xf32, #hivm.address_space<ub>>) outs(%z : memref<64xf32, #hivm.address_space<gm>>)
  return
}

// -----

// Distinct allocations never alias: a load and a vector op on other buffers overlap
// freely, and only the real dependence (the store reading %v) gets a barrier.

// CHECK-LABEL: func.func @distinct_allocs
// CHECK:       hivm.hir.load ins(%x
// CHECK-NEXT:  hivm.hir.vabs ins(%v
// CHECK-NEXT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  hivm.hir.store ins(%v
func.func @distinct_allocs(%x: memref<64xf32, #hivm.address_space<gm>>, %z: memref<64xf32, #hivm.address_space<gm>>) {
  %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %v = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.vabs ins(%v : memref<64xf32, #hivm.address_space<ub>>) outs(%v : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.store ins(%v : memref<64xf32, #hivm.address_space<ub>>) outs(%z : memref<64xf32, #hivm.address_space<gm>>)
  return
}
