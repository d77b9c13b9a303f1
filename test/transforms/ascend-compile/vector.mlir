// RUN: ascend-opt %s -p 'ascend-compile{sync=barrier-all schedule=program-order}' | filecheck %s
// Barrier sync is idempotent: a second run finds every dependence already fenced.
// RUN: ascend-opt %s -p 'ascend-compile{schedule=program-order sync=barrier-all},ascend-insert-barrier-sync' | filecheck %s
// RUN: ascend-opt %s -p 'ascend-compile{sync=barrier-all unroll=1}' | filecheck %s --check-prefix=MODULO
// RUN: ascend-opt %s -p ascend-compile | ascend-sim - --json | filecheck %s --check-prefix=SIM
// RUN: ascend-sim %s --json | filecheck %s --check-prefixes=SIM,REF

// The default schedule=modulo plans memory (%ux gets two versions at 0 and 1024, %uy
// one at 2048) and indexes the multi-buffered tile by iteration: version i mod 2 (with
// unroll=1: by default the loop is unrolled twice, each copy with its own buffers).
// MODULO: %uy = hivm.hir.pointer_cast(%c2048_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<256xf32, #hivm.address_space<ub>>
// MODULO: scf.for %i
// MODULO: %ver = arith.remui %i, %c2 : index
// MODULO: %ux_v = hivm.hir.pointer_cast(%{{[0-9]+}}) : memref<256xf32, #hivm.address_space<ub>>
// MODULO: hivm.hir.load ins(%xs : {{.*}}) outs(%ux_v

// A tile-level vector kernel becomes device hivm with the grid kept, the target set to
// the default chip, a PIPE_ALL barrier between every pair of dependent ops on different
// pipes and nothing between dependent vector ops: the 950's V pipe keeps them in order
// (the 910B needs a PIPE_V barrier there: ascend-insert-barrier-sync/vector.mlir).

// CHECK:       builtin.module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">}
// CHECK-LABEL: func.func @scale_add
// CHECK-SAME:    hacc.entry
// CHECK-SAME:    hacc.function_kind = #hacc.function_kind<DEVICE>
// CHECK-SAME:    hivm.func_core_type = #hivm.func_core_type<AIV>
// CHECK-SAME:    ascend.grid = 2 : i64
// CHECK:         hivm.hir.get_block_idx
// CHECK:         scf.for
// CHECK:           hivm.hir.load
// CHECK-NEXT:      hivm.hir.load
// CHECK-NEXT:      hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:      hivm.hir.vmul
// CHECK-NEXT:      hivm.hir.vadd
// CHECK-NEXT:      hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:      hivm.hir.store
// CHECK-NEXT:    }
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:    func.return
// CHECK-NOT:     tile.

// The compiled kernel has no race in the simulator, and (tile-level input) its outputs
// equal the reference interpreter's.
// SIM: "races": []
// SIM-SAME: "deadlock": false
// REF-SAME: "reference_match": true

func.func @scale_add(%x: memref<2048xf32, #hivm.address_space<gm>>, %y: memref<2048xf32, #hivm.address_space<gm>>, %z: memref<2048xf32, #hivm.address_space<gm>>)
    attributes {tile.kernel, tile.grid = 2 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %c1024 = arith.constant 1024 : index
  %two = arith.constant 2.0 : f32
  %block = tile.block_idx : index
  %base = arith.muli %block, %c1024 : index
  %ux = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
  %uy = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %c4 step %c1 {
    %t = arith.muli %i, %c256 : index
    %off = arith.addi %base, %t : index
    %xs = memref.subview %x[%off] [256] [1] : memref<2048xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    %ys = memref.subview %y[%off] [256] [1] : memref<2048xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    %zs = memref.subview %z[%off] [256] [1] : memref<2048xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    tile.copy ins(%xs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux : memref<256xf32, #hivm.address_space<ub>>)
    tile.copy ins(%ys : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%uy : memref<256xf32, #hivm.address_space<ub>>)
    tile.mul ins(%ux, %two : memref<256xf32, #hivm.address_space<ub>>, f32) outs(%ux : memref<256xf32, #hivm.address_space<ub>>)
    tile.add ins(%ux, %uy : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%ux : memref<256xf32, #hivm.address_space<ub>>)
    tile.copy ins(%ux : memref<256xf32, #hivm.address_space<ub>>) outs(%zs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
  } {tile.num_stages = 2 : i64}
  return
}
