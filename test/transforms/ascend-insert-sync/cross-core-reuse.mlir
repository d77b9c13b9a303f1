// RUN: ascend-opt %s -p "ascend-insert-sync{straight-line-barriers=false}" | filecheck %s
// RUN: ascend-opt %s -p "ascend-insert-sync{straight-line-barriers=false}" > %t.mlir
// RUN: ascend-opt %t.mlir -p ascend-verify-sync
// RUN: ascend-sim %t.mlir --json --perturb 5 | filecheck %s --check-prefix=SIM
// RUN: ascend-opt %t.mlir -p "ascend-insert-sync{straight-line-barriers=false}" | diff %t.mlir -
// (straight-line-barriers=false: the cross-core ids are tested, not the barriers each
// core's straight-line part gets where they replay faster, straight-line-serial.mlir)

// Cross-core flag ids are reused by lifetime. A MIX kernel hands one ub tile from the
// cube to the vector core 18 times in a row (fixpipe, then a vadd reading it), and the
// next fixpipe may overwrite the tile only after that vadd: 18 cube -> vector flags (the
// first one covers the two fixpipes before it) and 17 vector -> cube flags, never more
// than one of a direction live at once. Ids are per direction (cube -> vector 0 and
// vector -> cube 0 are counters of different cores) and fresh while they last: ids
// 0..15 first, then the one free for longest (0, then 1), with a pipe_barrier[<PIPE_ALL>]
// between two users of an id (each core drains there: the earlier user's sets are
// complete and consumed before the later one's are issued). One barrier serves all
// three reuses here.

// CHECK-NOT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK:      hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
// CHECK:      hivm.hir.sync_block_set[<VECTOR>, <PIPE_V>, <PIPE_FIX>] flag = 0
// CHECK:      hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 1
// CHECK-NOT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK:      hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 15
// CHECK-NOT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK:      hivm.hir.sync_block_set[<VECTOR>, <PIPE_V>, <PIPE_FIX>] flag = 15
// CHECK-NEXT: hivm.hir.sync_block_wait[<CUBE>, <PIPE_V>, <PIPE_FIX>] flag = 15
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT: hivm.hir.fixpipe
// CHECK-NEXT: hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
// CHECK-NEXT: hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 0
// CHECK-NEXT: hivm.hir.vadd
// CHECK-NEXT: hivm.hir.sync_block_set[<VECTOR>, <PIPE_V>, <PIPE_FIX>] flag = 0
// CHECK-NEXT: hivm.hir.sync_block_wait[<CUBE>, <PIPE_V>, <PIPE_FIX>] flag = 0
// CHECK-NEXT: hivm.hir.fixpipe
// CHECK-NEXT: hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 1
// CHECK-NEXT: hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 1
// CHECK-NEXT: hivm.hir.vadd
// CHECK-NOT:  hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK:      hivm.hir.store
// CHECK-NEXT: hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT: func.return

// SIM: "races": []
// SIM-SAME: "deadlock": false
// SIM-SAME: "unbalanced_flags": []
// SIM-SAME: "ok": true
module {
  func.func @handoffs(%a: memref<16x16xf16, #hivm.address_space<gm>>, %c: memref<16x16xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<MIX>} {
    %true = arith.constant true
    %c16 = arith.constant 16 : index
    %la = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
    %uc = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %ur = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    hivm.hir.nd2nz {dst_continuous} ins(%a : memref<16x16xf16, #hivm.address_space<gm>>) outs(%la : memref<16x16xf16, #hivm.address_space<cbuf>>)
    hivm.hir.mmadL1 ins(%la, %la, %true, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%uc : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %uc : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%uc : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %uc : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%uc : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %uc : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%uc : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %uc : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%uc : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %uc : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%uc : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %uc : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%uc : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %uc : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%uc : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %uc : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%uc : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %uc : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%uc : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %uc : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%uc : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %uc : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%uc : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %uc : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%uc : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %uc : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%uc : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %uc : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%uc : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %uc : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%uc : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %uc : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%uc : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %uc : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%uc : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %uc : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%ur : memref<16x16xf32, #hivm.address_space<ub>>) outs(%c : memref<16x16xf32, #hivm.address_space<gm>>)
    return
  }
}
