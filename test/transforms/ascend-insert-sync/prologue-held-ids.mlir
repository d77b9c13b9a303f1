// RUN: ascend-opt %s -p ascend-insert-sync 2>&1 | filecheck %s
// RUN: ascend-opt %s -p ascend-insert-sync 2>/dev/null > %t.mlir
// RUN: ascend-opt %t.mlir -p ascend-verify-sync
// RUN: ascend-sim %t.mlir --json --perturb 5 | filecheck %s --check-prefix=SIM
// RUN: ascend-opt %t.mlir -p ascend-insert-sync 2>/dev/null > %t.2.mlir
// RUN: diff %t.mlir %t.2.mlir

// A prologue whose flags take all 8 MTE2 -> V and all 8 V -> MTE3 ids of the function
// body (eight load / vabs / store chains), then a double-buffered loop whose flags of
// those pairs cycle through two ids each (period 2: the loads may run a pass ahead).
// The function body's flags hold their ids to the end of the function unless their
// waits are known done before the loop starts on the set pipe: the last prologue load
// (into %u7, after the vabs that read it) has MTE2 wait for V past every prologue
// MTE2 -> V wait, so the loop's MTE2 -> V flag reuses those ids (no barrier; it was a
// pipe_barrier[<PIPE_ALL>] before the ids were given back by lifetime for flags that
// cycle through versions). Nothing orders the prologue's V -> MTE3 waits (the stores)
// before the loop's vabs: the loop's flags of that pair choose their ids first (a flag
// without one is a barrier in every pass), the prologue's sets of the pair gather at
// one point (one flag), and nothing falls back. (Before the loop's flags chose first:
// "loop prologue_ids.i: V -> MTE3 needs 2 event ids live at once, the chip has 8,
// function prologue_ids's flags hold ids 0-7; pipe_barrier[<PIPE_ALL>] instead".)

// CHECK-NOT: remark:
// CHECK: scf.for
// CHECK: hivm.hir.load
// CHECK-NEXT: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, %
// CHECK-NEXT: hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, %
// CHECK-NOT: pipe_barrier
// CHECK: hivm.hir.vabs
// CHECK-NOT: pipe_barrier[<PIPE_ALL>]
// CHECK: }
// CHECK: hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT: return

// SIM: "races": []
// SIM-SAME: "deadlock": false
// SIM-SAME: "unbalanced_flags": []
// SIM-SAME: "double_sets": []
// SIM-SAME: "ok": true

module {
  func.func @prologue_ids(%x: memref<1024xf32, #hivm.address_space<gm>>, %z: memref<1024xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %version_bytes = arith.constant 256 : i64
    %x_base = arith.constant 2048 : i64
    %z_base = arith.constant 8192 : i64
    %o0 = arith.constant 0 : i64
    %p0 = arith.constant 4096 : i64
    %u0 = hivm.hir.pointer_cast(%o0) : memref<64xf32, #hivm.address_space<ub>>
    %v0 = hivm.hir.pointer_cast(%p0) : memref<64xf32, #hivm.address_space<ub>>
    %o1 = arith.constant 256 : i64
    %p1 = arith.constant 4352 : i64
    %u1 = hivm.hir.pointer_cast(%o1) : memref<64xf32, #hivm.address_space<ub>>
    %v1 = hivm.hir.pointer_cast(%p1) : memref<64xf32, #hivm.address_space<ub>>
    %o2 = arith.constant 512 : i64
    %p2 = arith.constant 4608 : i64
    %u2 = hivm.hir.pointer_cast(%o2) : memref<64xf32, #hivm.address_space<ub>>
    %v2 = hivm.hir.pointer_cast(%p2) : memref<64xf32, #hivm.address_space<ub>>
    %o3 = arith.constant 768 : i64
    %p3 = arith.constant 4864 : i64
    %u3 = hivm.hir.pointer_cast(%o3) : memref<64xf32, #hivm.address_space<ub>>
    %v3 = hivm.hir.pointer_cast(%p3) : memref<64xf32, #hivm.address_space<ub>>
    %o4 = arith.constant 1024 : i64
    %p4 = arith.constant 5120 : i64
    %u4 = hivm.hir.pointer_cast(%o4) : memref<64xf32, #hivm.address_space<ub>>
    %v4 = hivm.hir.pointer_cast(%p4) : memref<64xf32, #hivm.address_space<ub>>
    %o5 = arith.constant 1280 : i64
    %p5 = arith.constant 5376 : i64
    %u5 = hivm.hir.pointer_cast(%o5) : memref<64xf32, #hivm.address_space<ub>>
    %v5 = hivm.hir.pointer_cast(%p5) : memref<64xf32, #hivm.address_space<ub>>
    %o6 = arith.constant 1536 : i64
    %p6 = arith.constant 5632 : i64
    %u6 = hivm.hir.pointer_cast(%o6) : memref<64xf32, #hivm.address_space<ub>>
    %v6 = hivm.hir.pointer_cast(%p6) : memref<64xf32, #hivm.address_space<ub>>
    %o7 = arith.constant 1792 : i64
    %p7 = arith.constant 5888 : i64
    %u7 = hivm.hir.pointer_cast(%o7) : memref<64xf32, #hivm.address_space<ub>>
    %v7 = hivm.hir.pointer_cast(%p7) : memref<64xf32, #hivm.address_space<ub>>
    %xs0 = memref.subview %x[0] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: 0>, #hivm.address_space<gm>>
    hivm.hir.load ins(%xs0 : memref<64xf32, strided<[1], offset: 0>, #hivm.address_space<gm>>) outs(%u0 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vabs ins(%u0 : memref<64xf32, #hivm.address_space<ub>>) outs(%v0 : memref<64xf32, #hivm.address_space<ub>>)
    %xs1 = memref.subview %x[64] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: 64>, #hivm.address_space<gm>>
    hivm.hir.load ins(%xs1 : memref<64xf32, strided<[1], offset: 64>, #hivm.address_space<gm>>) outs(%u1 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vabs ins(%u1 : memref<64xf32, #hivm.address_space<ub>>) outs(%v1 : memref<64xf32, #hivm.address_space<ub>>)
    %xs2 = memref.subview %x[128] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: 128>, #hivm.address_space<gm>>
    hivm.hir.load ins(%xs2 : memref<64xf32, strided<[1], offset: 128>, #hivm.address_space<gm>>) outs(%u2 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vabs ins(%u2 : memref<64xf32, #hivm.address_space<ub>>) outs(%v2 : memref<64xf32, #hivm.address_space<ub>>)
    %xs3 = memref.subview %x[192] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: 192>, #hivm.address_space<gm>>
    hivm.hir.load ins(%xs3 : memref<64xf32, strided<[1], offset: 192>, #hivm.address_space<gm>>) outs(%u3 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vabs ins(%u3 : memref<64xf32, #hivm.address_space<ub>>) outs(%v3 : memref<64xf32, #hivm.address_space<ub>>)
    %xs4 = memref.subview %x[256] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: 256>, #hivm.address_space<gm>>
    hivm.hir.load ins(%xs4 : memref<64xf32, strided<[1], offset: 256>, #hivm.address_space<gm>>) outs(%u4 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vabs ins(%u4 : memref<64xf32, #hivm.address_space<ub>>) outs(%v4 : memref<64xf32, #hivm.address_space<ub>>)
    %xs5 = memref.subview %x[320] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: 320>, #hivm.address_space<gm>>
    hivm.hir.load ins(%xs5 : memref<64xf32, strided<[1], offset: 320>, #hivm.address_space<gm>>) outs(%u5 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vabs ins(%u5 : memref<64xf32, #hivm.address_space<ub>>) outs(%v5 : memref<64xf32, #hivm.address_space<ub>>)
    %xs6 = memref.subview %x[384] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: 384>, #hivm.address_space<gm>>
    hivm.hir.load ins(%xs6 : memref<64xf32, strided<[1], offset: 384>, #hivm.address_space<gm>>) outs(%u6 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vabs ins(%u6 : memref<64xf32, #hivm.address_space<ub>>) outs(%v6 : memref<64xf32, #hivm.address_space<ub>>)
    %xs7 = memref.subview %x[448] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: 448>, #hivm.address_space<gm>>
    hivm.hir.load ins(%xs7 : memref<64xf32, strided<[1], offset: 448>, #hivm.address_space<gm>>) outs(%u7 : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vabs ins(%u7 : memref<64xf32, #hivm.address_space<ub>>) outs(%v7 : memref<64xf32, #hivm.address_space<ub>>)
    %zs0 = memref.subview %z[0] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: 0>, #hivm.address_space<gm>>
    hivm.hir.store ins(%v0 : memref<64xf32, #hivm.address_space<ub>>) outs(%zs0 : memref<64xf32, strided<[1], offset: 0>, #hivm.address_space<gm>>)
    %zs1 = memref.subview %z[64] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: 64>, #hivm.address_space<gm>>
    hivm.hir.store ins(%v1 : memref<64xf32, #hivm.address_space<ub>>) outs(%zs1 : memref<64xf32, strided<[1], offset: 64>, #hivm.address_space<gm>>)
    %zs2 = memref.subview %z[128] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: 128>, #hivm.address_space<gm>>
    hivm.hir.store ins(%v2 : memref<64xf32, #hivm.address_space<ub>>) outs(%zs2 : memref<64xf32, strided<[1], offset: 128>, #hivm.address_space<gm>>)
    %zs3 = memref.subview %z[192] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: 192>, #hivm.address_space<gm>>
    hivm.hir.store ins(%v3 : memref<64xf32, #hivm.address_space<ub>>) outs(%zs3 : memref<64xf32, strided<[1], offset: 192>, #hivm.address_space<gm>>)
    %zs4 = memref.subview %z[256] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: 256>, #hivm.address_space<gm>>
    hivm.hir.store ins(%v4 : memref<64xf32, #hivm.address_space<ub>>) outs(%zs4 : memref<64xf32, strided<[1], offset: 256>, #hivm.address_space<gm>>)
    %zs5 = memref.subview %z[320] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: 320>, #hivm.address_space<gm>>
    hivm.hir.store ins(%v5 : memref<64xf32, #hivm.address_space<ub>>) outs(%zs5 : memref<64xf32, strided<[1], offset: 320>, #hivm.address_space<gm>>)
    %zs6 = memref.subview %z[384] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: 384>, #hivm.address_space<gm>>
    hivm.hir.store ins(%v6 : memref<64xf32, #hivm.address_space<ub>>) outs(%zs6 : memref<64xf32, strided<[1], offset: 384>, #hivm.address_space<gm>>)
    %zs7 = memref.subview %z[448] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: 448>, #hivm.address_space<gm>>
    hivm.hir.store ins(%v7 : memref<64xf32, #hivm.address_space<ub>>) outs(%zs7 : memref<64xf32, strided<[1], offset: 448>, #hivm.address_space<gm>>)
    %xs8 = memref.subview %x[512] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: 512>, #hivm.address_space<gm>>
    hivm.hir.load ins(%xs8 : memref<64xf32, strided<[1], offset: 512>, #hivm.address_space<gm>>) outs(%u7 : memref<64xf32, #hivm.address_space<ub>>)
    scf.for %i = %c0 to %c8 step %c1 {
      %ver = arith.remui %i, %c2 : index
      %ev = arith.index_cast %ver : index to i64
      %off_v = arith.muli %ev, %version_bytes : i64
      %x_off = arith.addi %off_v, %x_base : i64
      %z_off = arith.addi %off_v, %z_base : i64
      %ux = hivm.hir.pointer_cast(%x_off) : memref<64xf32, #hivm.address_space<ub>>
      %uz = hivm.hir.pointer_cast(%z_off) : memref<64xf32, #hivm.address_space<ub>>
      %off = arith.muli %i, %c64 : index
      %off2 = arith.addi %off, %c64 : index
      %xs = memref.subview %x[%off2] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %zs = memref.subview %z[%off2] [64] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%xs : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs ins(%ux : memref<64xf32, #hivm.address_space<ub>>) outs(%uz : memref<64xf32, #hivm.address_space<ub>>)
      hivm.hir.store ins(%uz : memref<64xf32, #hivm.address_space<ub>>) outs(%zs : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
    }
    return
  }
}
