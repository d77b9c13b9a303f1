// Fast tier: test_event_rings.py's merge_carried cases and test_code_flags.py's stand in.
// UNSUPPORTED: fast-tier
// RUN: ascend-opt %s -p 'ascend-compile{chip-file="%S/Inputs/four-events-slow-gm.toml"}' 2>&1 | filecheck %s
// RUN: ascend-sim %s --chip %S/Inputs/four-events-slow-gm.toml --perturb 3 --json | filecheck %s --check-prefix=SIM

// Six chains in a loop of 16 trips (bench/e2e/unseen.py seed 41) on a chip of 4 event
// ids per pipe pair whose GM paths are slow. The loop is pipelined over stages, each
// chain's input buffers in two versions: a load into version i mod 2 waits for the
// vector op that read it two passes earlier, a V -> MTE2 flag carried over two passes
// on two ids, one per chain that reads its inputs last in a different place: three
// flags, 6 ids of 4. No ring of one pass takes a carried flag, and the loop used to
// get a pipe_barrier[<PIPE_ALL>] in every pass instead (the replay did not know: 530
// cycles an iteration written, 1408 run). The carried flags now merge, set after the
// later vector op and waited before the earlier load, until they fit
// (`event_ids.merge_carried`), and the replay merges them the same way (the II
// written is what the loop runs at, test_unseen_shapes).

// CHECK-NOT: instead
// CHECK:     scf.for
// CHECK-NOT: pipe_barrier
// CHECK:     hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>
// CHECK-NOT: pipe_barrier
// CHECK:     hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>
// CHECK-NOT: set_flag[<PIPE_V>, <PIPE_MTE2>
// CHECK-NOT: pipe_barrier
// CHECK:     }
// CHECK:     hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT: func.return

// SIM: "races": []
// SIM-SAME: "deadlock": false
// SIM-SAME: "unbalanced_flags": []
// SIM-SAME: "reference_match": true
// SIM-SAME: "double_sets": []
// SIM-SAME: "perturb": {"runs": 3, "ok": true
// SIM-SAME: "ok": true
module {
  func.func @unseen(%x0: memref<16x24xf32, #hivm.address_space<gm>>, %w0: memref<16x24xf32, #hivm.address_space<gm>>, %y0: memref<16x24xf32, #hivm.address_space<gm>>, %x1: memref<48x40xf32, #hivm.address_space<gm>>, %y1: memref<48x40xf32, #hivm.address_space<gm>>, %x2: memref<192x24xf32, #hivm.address_space<gm>>, %w2: memref<192x24xf32, #hivm.address_space<gm>>, %y2: memref<192x24xf32, #hivm.address_space<gm>>, %x3: memref<48x24xf32, #hivm.address_space<gm>>, %y3: memref<48x24xf32, #hivm.address_space<gm>>, %x4: memref<80x96xf32, #hivm.address_space<gm>>, %w4: memref<80x96xf32, #hivm.address_space<gm>>, %y4: memref<80x96xf32, #hivm.address_space<gm>>, %x5: memref<48x8xf32, #hivm.address_space<gm>>, %w5: memref<48x8xf32, #hivm.address_space<gm>>, %y5: memref<48x8xf32, #hivm.address_space<gm>>) attributes {tile.kernel, tile.grid = 1 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %crows0 = arith.constant 1 : index
    %crows1 = arith.constant 3 : index
    %crows2 = arith.constant 12 : index
    %crows3 = arith.constant 3 : index
    %crows4 = arith.constant 5 : index
    %crows5 = arith.constant 3 : index
    %n = arith.constant 16 : index
    %a0 = memref.alloc() : memref<1x24xf32, #hivm.address_space<ub>>
    %b0 = memref.alloc() : memref<1x24xf32, #hivm.address_space<ub>>
    %e0 = memref.alloc() : memref<1x24xf32, #hivm.address_space<ub>>
    %a1 = memref.alloc() : memref<3x40xf32, #hivm.address_space<ub>>
    %b1 = memref.alloc() : memref<3x40xf32, #hivm.address_space<ub>>
    %a2 = memref.alloc() : memref<12x24xf32, #hivm.address_space<ub>>
    %b2 = memref.alloc() : memref<12x24xf32, #hivm.address_space<ub>>
    %e2 = memref.alloc() : memref<12x24xf32, #hivm.address_space<ub>>
    %a3 = memref.alloc() : memref<3x24xf32, #hivm.address_space<ub>>
    %b3 = memref.alloc() : memref<3x24xf32, #hivm.address_space<ub>>
    %a4 = memref.alloc() : memref<5x96xf32, #hivm.address_space<ub>>
    %b4 = memref.alloc() : memref<5x96xf32, #hivm.address_space<ub>>
    %e4 = memref.alloc() : memref<5x96xf32, #hivm.address_space<ub>>
    %a5 = memref.alloc() : memref<3x8xf32, #hivm.address_space<ub>>
    %b5 = memref.alloc() : memref<3x8xf32, #hivm.address_space<ub>>
    %e5 = memref.alloc() : memref<3x8xf32, #hivm.address_space<ub>>
    scf.for %i = %c0 to %n step %c1 {
      %r0 = arith.muli %i, %crows0 : index
      %vx0 = memref.subview %x0[%r0, 0] [1, 24] [1, 1] : memref<16x24xf32, #hivm.address_space<gm>> to memref<1x24xf32, strided<[24, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%vx0 : memref<1x24xf32, strided<[24, 1], offset: ?>, #hivm.address_space<gm>>) outs(%a0 : memref<1x24xf32, #hivm.address_space<ub>>)
      %vw0 = memref.subview %w0[%r0, 0] [1, 24] [1, 1] : memref<16x24xf32, #hivm.address_space<gm>> to memref<1x24xf32, strided<[24, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%vw0 : memref<1x24xf32, strided<[24, 1], offset: ?>, #hivm.address_space<gm>>) outs(%e0 : memref<1x24xf32, #hivm.address_space<ub>>)
      tile.max ins(%a0, %e0 : memref<1x24xf32, #hivm.address_space<ub>>, memref<1x24xf32, #hivm.address_space<ub>>) outs(%b0 : memref<1x24xf32, #hivm.address_space<ub>>)
      %vy0 = memref.subview %y0[%r0, 0] [1, 24] [1, 1] : memref<16x24xf32, #hivm.address_space<gm>> to memref<1x24xf32, strided<[24, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%b0 : memref<1x24xf32, #hivm.address_space<ub>>) outs(%vy0 : memref<1x24xf32, strided<[24, 1], offset: ?>, #hivm.address_space<gm>>)
      %r1 = arith.muli %i, %crows1 : index
      %vx1 = memref.subview %x1[%r1, 0] [3, 40] [1, 1] : memref<48x40xf32, #hivm.address_space<gm>> to memref<3x40xf32, strided<[40, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%vx1 : memref<3x40xf32, strided<[40, 1], offset: ?>, #hivm.address_space<gm>>) outs(%a1 : memref<3x40xf32, #hivm.address_space<ub>>)
      %vy1 = memref.subview %y1[%r1, 0] [3, 40] [1, 1] : memref<48x40xf32, #hivm.address_space<gm>> to memref<3x40xf32, strided<[40, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%a1 : memref<3x40xf32, #hivm.address_space<ub>>) outs(%vy1 : memref<3x40xf32, strided<[40, 1], offset: ?>, #hivm.address_space<gm>>)
      %r2 = arith.muli %i, %crows2 : index
      %vx2 = memref.subview %x2[%r2, 0] [12, 24] [1, 1] : memref<192x24xf32, #hivm.address_space<gm>> to memref<12x24xf32, strided<[24, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%vx2 : memref<12x24xf32, strided<[24, 1], offset: ?>, #hivm.address_space<gm>>) outs(%a2 : memref<12x24xf32, #hivm.address_space<ub>>)
      %vw2 = memref.subview %w2[%r2, 0] [12, 24] [1, 1] : memref<192x24xf32, #hivm.address_space<gm>> to memref<12x24xf32, strided<[24, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%vw2 : memref<12x24xf32, strided<[24, 1], offset: ?>, #hivm.address_space<gm>>) outs(%e2 : memref<12x24xf32, #hivm.address_space<ub>>)
      tile.add ins(%a2, %e2 : memref<12x24xf32, #hivm.address_space<ub>>, memref<12x24xf32, #hivm.address_space<ub>>) outs(%b2 : memref<12x24xf32, #hivm.address_space<ub>>)
      tile.relu ins(%b2 : memref<12x24xf32, #hivm.address_space<ub>>) outs(%a2 : memref<12x24xf32, #hivm.address_space<ub>>)
      tile.exp ins(%a2 : memref<12x24xf32, #hivm.address_space<ub>>) outs(%b2 : memref<12x24xf32, #hivm.address_space<ub>>)
      tile.max ins(%b2, %b2 : memref<12x24xf32, #hivm.address_space<ub>>, memref<12x24xf32, #hivm.address_space<ub>>) outs(%a2 : memref<12x24xf32, #hivm.address_space<ub>>)
      tile.add ins(%a2, %a2 : memref<12x24xf32, #hivm.address_space<ub>>, memref<12x24xf32, #hivm.address_space<ub>>) outs(%b2 : memref<12x24xf32, #hivm.address_space<ub>>)
      %vy2 = memref.subview %y2[%r2, 0] [12, 24] [1, 1] : memref<192x24xf32, #hivm.address_space<gm>> to memref<12x24xf32, strided<[24, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%b2 : memref<12x24xf32, #hivm.address_space<ub>>) outs(%vy2 : memref<12x24xf32, strided<[24, 1], offset: ?>, #hivm.address_space<gm>>)
      %r3 = arith.muli %i, %crows3 : index
      %vx3 = memref.subview %x3[%r3, 0] [3, 24] [1, 1] : memref<48x24xf32, #hivm.address_space<gm>> to memref<3x24xf32, strided<[24, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%vx3 : memref<3x24xf32, strided<[24, 1], offset: ?>, #hivm.address_space<gm>>) outs(%a3 : memref<3x24xf32, #hivm.address_space<ub>>)
      %vy3 = memref.subview %y3[%r3, 0] [3, 24] [1, 1] : memref<48x24xf32, #hivm.address_space<gm>> to memref<3x24xf32, strided<[24, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%a3 : memref<3x24xf32, #hivm.address_space<ub>>) outs(%vy3 : memref<3x24xf32, strided<[24, 1], offset: ?>, #hivm.address_space<gm>>)
      %r4 = arith.muli %i, %crows4 : index
      %vx4 = memref.subview %x4[%r4, 0] [5, 96] [1, 1] : memref<80x96xf32, #hivm.address_space<gm>> to memref<5x96xf32, strided<[96, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%vx4 : memref<5x96xf32, strided<[96, 1], offset: ?>, #hivm.address_space<gm>>) outs(%a4 : memref<5x96xf32, #hivm.address_space<ub>>)
      %vw4 = memref.subview %w4[%r4, 0] [5, 96] [1, 1] : memref<80x96xf32, #hivm.address_space<gm>> to memref<5x96xf32, strided<[96, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%vw4 : memref<5x96xf32, strided<[96, 1], offset: ?>, #hivm.address_space<gm>>) outs(%e4 : memref<5x96xf32, #hivm.address_space<ub>>)
      tile.add ins(%a4, %e4 : memref<5x96xf32, #hivm.address_space<ub>>, memref<5x96xf32, #hivm.address_space<ub>>) outs(%b4 : memref<5x96xf32, #hivm.address_space<ub>>)
      tile.exp ins(%b4 : memref<5x96xf32, #hivm.address_space<ub>>) outs(%a4 : memref<5x96xf32, #hivm.address_space<ub>>)
      %vy4 = memref.subview %y4[%r4, 0] [5, 96] [1, 1] : memref<80x96xf32, #hivm.address_space<gm>> to memref<5x96xf32, strided<[96, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%a4 : memref<5x96xf32, #hivm.address_space<ub>>) outs(%vy4 : memref<5x96xf32, strided<[96, 1], offset: ?>, #hivm.address_space<gm>>)
      %r5 = arith.muli %i, %crows5 : index
      %vx5 = memref.subview %x5[%r5, 0] [3, 8] [1, 1] : memref<48x8xf32, #hivm.address_space<gm>> to memref<3x8xf32, strided<[8, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%vx5 : memref<3x8xf32, strided<[8, 1], offset: ?>, #hivm.address_space<gm>>) outs(%a5 : memref<3x8xf32, #hivm.address_space<ub>>)
      %vw5 = memref.subview %w5[%r5, 0] [3, 8] [1, 1] : memref<48x8xf32, #hivm.address_space<gm>> to memref<3x8xf32, strided<[8, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%vw5 : memref<3x8xf32, strided<[8, 1], offset: ?>, #hivm.address_space<gm>>) outs(%e5 : memref<3x8xf32, #hivm.address_space<ub>>)
      tile.add ins(%a5, %e5 : memref<3x8xf32, #hivm.address_space<ub>>, memref<3x8xf32, #hivm.address_space<ub>>) outs(%b5 : memref<3x8xf32, #hivm.address_space<ub>>)
      tile.max ins(%b5, %b5 : memref<3x8xf32, #hivm.address_space<ub>>, memref<3x8xf32, #hivm.address_space<ub>>) outs(%a5 : memref<3x8xf32, #hivm.address_space<ub>>)
      tile.exp ins(%a5 : memref<3x8xf32, #hivm.address_space<ub>>) outs(%b5 : memref<3x8xf32, #hivm.address_space<ub>>)
      tile.sub ins(%b5, %b5 : memref<3x8xf32, #hivm.address_space<ub>>, memref<3x8xf32, #hivm.address_space<ub>>) outs(%a5 : memref<3x8xf32, #hivm.address_space<ub>>)
      tile.max ins(%a5, %a5 : memref<3x8xf32, #hivm.address_space<ub>>, memref<3x8xf32, #hivm.address_space<ub>>) outs(%b5 : memref<3x8xf32, #hivm.address_space<ub>>)
      %vy5 = memref.subview %y5[%r5, 0] [3, 8] [1, 1] : memref<48x8xf32, #hivm.address_space<gm>> to memref<3x8xf32, strided<[8, 1], offset: ?>, #hivm.address_space<gm>>
      tile.copy ins(%b5 : memref<3x8xf32, #hivm.address_space<ub>>) outs(%vy5 : memref<3x8xf32, strided<[8, 1], offset: ?>, #hivm.address_space<gm>>)
    } {tile.num_stages = 2 : i64}
    return
  }
}

