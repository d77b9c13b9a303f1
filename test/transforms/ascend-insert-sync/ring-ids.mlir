// RUN: ascend-opt %s -p ascend-insert-sync 2>&1 | filecheck %s
// RUN: ascend-opt %s -p ascend-insert-sync > %t.mlir
// RUN: ascend-opt %t.mlir -p ascend-verify-sync
// RUN: ascend-sim %t.mlir --perturb 3 --json | filecheck %s --check-prefix=SIM
// RUN: ascend-opt %s -p 'ascend-insert-sync{chip-file="%S/Inputs/four-events.toml"}' 2>&1 | filecheck %s --check-prefix=FOUR
// RUN: ascend-opt %s -p 'ascend-insert-sync{chip-file="%S/Inputs/four-events.toml"}' > %t4.mlir
// RUN: ascend-opt %t4.mlir -p 'ascend-verify-sync{chip-file="%S/Inputs/four-events.toml"}'
// RUN: ascend-sim %t4.mlir --perturb 3 --json | filecheck %s --check-prefix=SIM

// Ten loads in a loop, each read by a vector op right after it: ten MTE2 -> V flags of
// one pass, more than the pair's ids, and nothing orders a vabs before the next load's
// set. Instead of a barrier (out-of-events.mlir, straight-line code, still does that),
// the flags take turns on the ids by lifetime (a flag holds its id from its load to its
// vabs), and V -> MTE2 flags back order each reuse of an id after the previous user's
// wait (the fewest such flags that cover every reuse; one of them carried around the
// back edge, which also orders the next pass's loads after this pass's vabs).

// CHECK-NOT: remark
// CHECK: scf.for
// CHECK-COUNT-10: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID{{[0-7]}}>]
// CHECK-NOT: pipe_barrier
// CHECK: hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>

// Four ids per pair: the ten flags share four, still no barrier in the loop.
// FOUR-NOT: remark
// FOUR: scf.for
// FOUR-COUNT-10: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID{{[0-3]}}>]
// FOUR-NOT: pipe_barrier
// FOUR: hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>

// SIM: "races": []
// SIM-SAME: "double_sets": []
// SIM-SAME: "ok": true

func.func @ring(%x: memref<64xf32, #hivm.address_space<gm>>, %z: memref<64xf32, #hivm.address_space<gm>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %u0 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %v0 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %u1 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %v1 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %u2 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %v2 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %u3 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %v3 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %u4 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %v4 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %u5 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %v5 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %u6 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %v6 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %u7 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %v7 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %u8 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %v8 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %u9 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %v9 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %c4 step %c1 {
    hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u0 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vabs ins(%u0 : memref<64xf32, #hivm.address_space<ub>>) outs(%v0 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u1 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vabs ins(%u1 : memref<64xf32, #hivm.address_space<ub>>) outs(%v1 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u2 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vabs ins(%u2 : memref<64xf32, #hivm.address_space<ub>>) outs(%v2 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u3 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vabs ins(%u3 : memref<64xf32, #hivm.address_space<ub>>) outs(%v3 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u4 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vabs ins(%u4 : memref<64xf32, #hivm.address_space<ub>>) outs(%v4 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u5 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vabs ins(%u5 : memref<64xf32, #hivm.address_space<ub>>) outs(%v5 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u6 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vabs ins(%u6 : memref<64xf32, #hivm.address_space<ub>>) outs(%v6 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u7 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vabs ins(%u7 : memref<64xf32, #hivm.address_space<ub>>) outs(%v7 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u8 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vabs ins(%u8 : memref<64xf32, #hivm.address_space<ub>>) outs(%v8 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u9 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vabs ins(%u9 : memref<64xf32, #hivm.address_space<ub>>) outs(%v9 : memref<64xf32, #hivm.address_space<ub>>)
  }
  hivm.hir.store ins(%v0 : memref<64xf32, #hivm.address_space<ub>>) outs(%z : memref<64xf32, #hivm.address_space<gm>>)
  return
}
