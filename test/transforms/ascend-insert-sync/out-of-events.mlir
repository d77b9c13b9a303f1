// RUN: ascend-opt %s -p "ascend-insert-sync{straight-line-barriers=false}" 2>&1 | filecheck %s
// RUN: ascend-opt %s -p "ascend-insert-sync{straight-line-barriers=false}" 2>/dev/null > %t.mlir
// RUN: ascend-opt %t.mlir -p ascend-verify-sync
// RUN: ascend-sim %t.mlir --json | filecheck %s --check-prefix=SIM
// RUN: ascend-opt %s -p 'ascend-insert-sync{chip-file="%S/Inputs/four-events.toml" straight-line-barriers=false}' 2>&1 | filecheck %s --check-prefix=FOUR
// RUN: ascend-opt %s -p 'ascend-insert-sync{chip-file="%S/Inputs/four-events.toml" straight-line-barriers=false},ascend-verify-sync'
// (straight-line-barriers=false: the flags are tested, not the barriers a function of
// straight-line code gets where they replay faster, straight-line-serial.mlir)

// Nine loads, each read by a vector op right after it: nine MTE2 -> V flags whose sets
// cannot gather (each consumer comes before the next load) and which do not take turns
// (nothing orders a vabs before the next load's set), so all nine hold an id to the end
// of the function: one more than the 8 of the pair. The ninth dependence falls back to
// a pipe_barrier[<PIPE_ALL>] before its consumer (always correct) and a remark names
// the block and the count it needed.

// CHECK: remark: ascend-insert-sync: function many: MTE2 -> V needs 9 event ids live at once, the chip has 8; pipe_barrier[<PIPE_ALL>] instead
// CHECK-COUNT-8: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID{{[0-7]}}>]
// CHECK-NOT: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>
// CHECK: hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT: hivm.hir.vabs ins(%u8

// A chip whose file allows four event ids per pipe pair: the fifth dependence falls back
// to a barrier, which also orders the first four flags' waits before every later set:
// the last four flags take ids 0-3 again. (One barrier per short flag, five, made
// four_ids seed 718's stores wait for each other.)
// FOUR: remark: ascend-insert-sync: function many: MTE2 -> V needs 9 event ids live at once, the chip has 4
// FOUR-NOT: remark
// FOUR-COUNT-4: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID{{[0-3]}}>]
// FOUR-NOT: set_flag
// FOUR: hivm.hir.pipe_barrier[<PIPE_ALL>]
// FOUR-NEXT: hivm.hir.vabs ins(%u4
// FOUR-NOT: pipe_barrier
// FOUR-COUNT-4: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID{{[0-3]}}>]
// FOUR-NOT: set_flag
// FOUR: hivm.hir.pipe_barrier[<PIPE_ALL>]
// FOUR-NEXT: return

// SIM: "races": []
// SIM-SAME: "ok": true

func.func @many(%x: memref<64xf32, #hivm.address_space<gm>>, %z: memref<64xf32, #hivm.address_space<gm>>) {
  %u0 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %u1 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %u2 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %u3 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %u4 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %u5 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %u6 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %u7 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %u8 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %v0 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %v1 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %v2 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %v3 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %v4 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %v5 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %v6 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %v7 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
  %v8 = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
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
  return
}
