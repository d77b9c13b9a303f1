// RUN: ascend-opt %s -p ascend-insert-sync | filecheck %s
// RUN: ascend-opt %s -p ascend-insert-sync > %t.mlir
// RUN: ascend-sim %t.mlir --json --perturb 5 | filecheck %s --check-prefix=SIM
// RUN: ascend-opt %t.mlir -p ascend-verify-sync
// RUN: ascend-opt %t.mlir -p ascend-insert-sync > %t.2.mlir
// RUN: diff %t.mlir %t.2.mlir

// A function of straight-line code (no loop) of one core whose code, replayed both ways
// (scheduling/realize.py), runs faster with its hand-offs as pipe_barrier[<PIPE_ALL>]s:
// one K step of a gemm runs one op at a time, and a barrier costs a cycle where a
// set_flag / wait_flag pair costs two. The function is marked `ascend.barrier_sync`.
// Two independent chains keep their flags: a barrier before the second chain's store would
// wait for the first chain's long vector op (the second function). The oracle finds no race
// under perturbed latencies, verify-sync accepts both, and a second run adds nothing.

// CHECK-LABEL: func.func @one_k_step
// CHECK-SAME:   ascend.barrier_sync
// CHECK-NOT:    set_flag
// CHECK:        hivm.hir.nd2nz
// CHECK-NEXT:   hivm.hir.nd2nz
// CHECK-NEXT:   hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:   hivm.hir.mmadL1
// CHECK-NEXT:   hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:   hivm.hir.fixpipe
// CHECK-NEXT:   hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:   func.return
// A MIX function of one K step and a relu: each core's part, replayed on its own (the
// cores hand off by sync_block flags, which stay), runs one op at a time.
// CHECK-LABEL: func.func @mix_one_step
// CHECK-SAME:   ascend.barrier_sync
// CHECK-NOT:    set_flag
// CHECK:        hivm.hir.nd2nz
// CHECK-NEXT:   hivm.hir.nd2nz
// CHECK-NEXT:   hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:   hivm.hir.mmadL1
// CHECK-NEXT:   hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:   hivm.hir.fixpipe
// CHECK-NEXT:   hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>]
// CHECK-NEXT:   hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>]
// CHECK-NEXT:   hivm.hir.vrelu
// CHECK-NEXT:   hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:   hivm.hir.store
// CHECK-LABEL: func.func @two_chains
// CHECK-NOT:    ascend.barrier_sync
// CHECK-NOT:    pipe_barrier[<PIPE_ALL>]
// CHECK:        hivm.hir.load
// CHECK-NEXT:   hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>
// CHECK:        hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:   func.return

// SIM: "races": []
// SIM-SAME: "deadlock": false
// SIM-SAME: "unbalanced_flags": []
// SIM-SAME: "double_sets": []
// SIM-SAME: "ok": true
module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  func.func @one_k_step(%a: memref<64x64xbf16, #hivm.address_space<gm>>, %b: memref<64x64xbf16, #hivm.address_space<gm>>, %c: memref<64x64xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>} {
    %true = arith.constant true
    %c64 = arith.constant 64 : index
    %la = memref.alloc() : memref<64x64xbf16, #hivm.address_space<cbuf>>
    %lb = memref.alloc() : memref<64x64xbf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<64x64xf32, #hivm.address_space<cc>>
    hivm.hir.nd2nz {dst_continuous} ins(%a : memref<64x64xbf16, #hivm.address_space<gm>>) outs(%la : memref<64x64xbf16, #hivm.address_space<cbuf>>)
    hivm.hir.nd2nz {dst_continuous} ins(%b : memref<64x64xbf16, #hivm.address_space<gm>>) outs(%lb : memref<64x64xbf16, #hivm.address_space<cbuf>>)
    hivm.hir.mmadL1 ins(%la, %lb, %true, %c64, %c64, %c64 : memref<64x64xbf16, #hivm.address_space<cbuf>>, memref<64x64xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<64x64xf32, #hivm.address_space<cc>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<64x64xf32, #hivm.address_space<cc>>) outs(%c : memref<64x64xf32, #hivm.address_space<gm>>)
    func.return
  }
  func.func @mix_one_step(%a: memref<64x64xbf16, #hivm.address_space<gm>>, %b: memref<64x64xbf16, #hivm.address_space<gm>>, %c: memref<64x64xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<MIX>} {
    %true = arith.constant true
    %c64 = arith.constant 64 : index
    %la = memref.alloc() : memref<64x64xbf16, #hivm.address_space<cbuf>>
    %lb = memref.alloc() : memref<64x64xbf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<64x64xf32, #hivm.address_space<cc>>
    %u = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    %r = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    hivm.hir.nd2nz {dst_continuous} ins(%a : memref<64x64xbf16, #hivm.address_space<gm>>) outs(%la : memref<64x64xbf16, #hivm.address_space<cbuf>>)
    hivm.hir.nd2nz {dst_continuous} ins(%b : memref<64x64xbf16, #hivm.address_space<gm>>) outs(%lb : memref<64x64xbf16, #hivm.address_space<cbuf>>)
    hivm.hir.mmadL1 ins(%la, %lb, %true, %c64, %c64, %c64 : memref<64x64xbf16, #hivm.address_space<cbuf>>, memref<64x64xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<64x64xf32, #hivm.address_space<cc>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<64x64xf32, #hivm.address_space<cc>>) outs(%u : memref<64x64xf32, #hivm.address_space<ub>>)
    hivm.hir.vrelu ins(%u : memref<64x64xf32, #hivm.address_space<ub>>) outs(%r : memref<64x64xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%r : memref<64x64xf32, #hivm.address_space<ub>>) outs(%c : memref<64x64xf32, #hivm.address_space<gm>>)
    func.return
  }
  func.func @two_chains(%x: memref<8192xf32, #hivm.address_space<gm>>, %y: memref<256xf32, #hivm.address_space<gm>>, %z: memref<8192xf32, #hivm.address_space<gm>>, %w: memref<256xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %u = memref.alloc() : memref<8192xf32, #hivm.address_space<ub>>
    %v = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%x : memref<8192xf32, #hivm.address_space<gm>>) outs(%u : memref<8192xf32, #hivm.address_space<ub>>)
    hivm.hir.vexp ins(%u : memref<8192xf32, #hivm.address_space<ub>>) outs(%u : memref<8192xf32, #hivm.address_space<ub>>)
    hivm.hir.load ins(%y : memref<256xf32, #hivm.address_space<gm>>) outs(%v : memref<256xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%v : memref<256xf32, #hivm.address_space<ub>>) outs(%w : memref<256xf32, #hivm.address_space<gm>>)
    hivm.hir.store ins(%u : memref<8192xf32, #hivm.address_space<ub>>) outs(%z : memref<8192xf32, #hivm.address_space<gm>>)
    func.return
  }
}
