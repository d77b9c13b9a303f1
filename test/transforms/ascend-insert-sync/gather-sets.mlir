// RUN: ascend-opt %s -p "ascend-insert-sync{straight-line-barriers=false}" 2>&1 | filecheck %s
// RUN: ascend-opt %s -p "ascend-insert-sync{straight-line-barriers=false}" 2>/dev/null > %t.mlir
// RUN: ascend-opt %t.mlir -p ascend-verify-sync
// RUN: ascend-sim %t.mlir --json | filecheck %s --check-prefix=SIM
// (straight-line-barriers=false: the flags are tested, not the barriers a function of
// straight-line code gets where they replay faster, straight-line-serial.mlir)

// Nine loads, then nine vector ops each reading one: nine MTE2 -> V dependences, one
// more than the 8 event ids of the pair. Before any barrier, the sets of MTE2 gather at
// the fewest points (analysis.flag_sets): one set after the ninth load serves all nine,
// waited before the first vabs (one event id, one drain of MTE2, no remark).

// CHECK-NOT: remark
// CHECK-COUNT-9: hivm.hir.load
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT: hivm.hir.vabs ins(%u0
// CHECK-NOT: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>
// CHECK-NOT: PIPE_ALL]
// CHECK: hivm.hir.vabs ins(%u8
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_ALL>]

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
  hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u1 : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u2 : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u3 : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u4 : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u5 : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u6 : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u7 : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u8 : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.vabs ins(%u0 : memref<64xf32, #hivm.address_space<ub>>) outs(%v0 : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.vabs ins(%u1 : memref<64xf32, #hivm.address_space<ub>>) outs(%v1 : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.vabs ins(%u2 : memref<64xf32, #hivm.address_space<ub>>) outs(%v2 : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.vabs ins(%u3 : memref<64xf32, #hivm.address_space<ub>>) outs(%v3 : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.vabs ins(%u4 : memref<64xf32, #hivm.address_space<ub>>) outs(%v4 : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.vabs ins(%u5 : memref<64xf32, #hivm.address_space<ub>>) outs(%v5 : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.vabs ins(%u6 : memref<64xf32, #hivm.address_space<ub>>) outs(%v6 : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.vabs ins(%u7 : memref<64xf32, #hivm.address_space<ub>>) outs(%v7 : memref<64xf32, #hivm.address_space<ub>>)
  hivm.hir.vabs ins(%u8 : memref<64xf32, #hivm.address_space<ub>>) outs(%v8 : memref<64xf32, #hivm.address_space<ub>>)
  return
}
