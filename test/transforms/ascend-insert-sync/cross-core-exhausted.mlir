// Fast tier: out-of-events.mlir (ids run out, the fallback and its remark) and
// cross-core-reuse.mlir (cross-core ids by lifetime) stand in.
// UNSUPPORTED: fast-tier
// RUN: not ascend-opt %s -p ascend-insert-sync 2>&1 | filecheck %s --check-prefix=ERR
// RUN: ascend-opt %s -p ascend-compile 2>&1 >%t.mlir | filecheck %s --check-prefix=REMARK
// RUN: filecheck %s --input-file=%t.mlir --check-prefix=BARRIER
// RUN: ascend-sim %t.mlir --json --perturb 5 | filecheck %s --check-prefix=SIM

// The one case cross-core flag reuse cannot help: 17 cube -> vector hand-offs live at
// once (17 fixpipes into 17 ub tiles, then 17 vadds reading them in the same order, each
// free to start once its own tile has arrived), one more than the 16 flag ids of a
// direction. ascend-insert-sync stops with a located error naming the
// other sync pass; ascend-compile falls back to it (barrier sync) with a remark, and the
// result is still correct.

// ERR: cross-core-exhausted.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'hivm.hir.vadd' op ascend-insert-sync: more than 16 cube -> vector cross-core flags live at once (use ascend-insert-barrier-sync for this kernel)
// REMARK: remark: ascend-insert-sync: more than 16 cube -> vector cross-core flags live at once (use ascend-insert-barrier-sync for this kernel); ascend-compile falls back to sync=barrier-all for this kernel
// BARRIER: hivm.hir.sync_block_set
// BARRIER-NOT: hivm.hir.set_flag
// SIM: "races": []
// SIM-SAME: "deadlock": false
// SIM-SAME: "ok": true
module {
  func.func @live(%a: memref<16x16xf16, #hivm.address_space<gm>>, %c: memref<16x16xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<MIX>} {
    %true = arith.constant true
    %c16 = arith.constant 16 : index
    %la = memref.alloc() : memref<16x16xf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<16x16xf32, #hivm.address_space<cc>>
    %ur = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %u0 = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %u1 = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %u2 = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %u3 = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %u4 = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %u5 = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %u6 = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %u7 = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %u8 = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %u9 = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %u10 = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %u11 = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %u12 = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %u13 = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %u14 = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %u15 = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %u16 = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    hivm.hir.nd2nz {dst_continuous} ins(%a : memref<16x16xf16, #hivm.address_space<gm>>) outs(%la : memref<16x16xf16, #hivm.address_space<cbuf>>)
    hivm.hir.mmadL1 ins(%la, %la, %true, %c16, %c16, %c16 : memref<16x16xf16, #hivm.address_space<cbuf>>, memref<16x16xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<16x16xf32, #hivm.address_space<cc>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u0 : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u1 : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u2 : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u3 : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u4 : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u5 : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u6 : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u7 : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u8 : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u9 : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u10 : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u11 : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u12 : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u13 : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u14 : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u15 : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<16x16xf32, #hivm.address_space<cc>>) outs(%u16 : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %u0 : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %u1 : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %u2 : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %u3 : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %u4 : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %u5 : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %u6 : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %u7 : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %u8 : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %u9 : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %u10 : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %u11 : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %u12 : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %u13 : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %u14 : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %u15 : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vadd ins(%ur, %u16 : memref<16x16xf32, #hivm.address_space<ub>>, memref<16x16xf32, #hivm.address_space<ub>>) outs(%ur : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.store ins(%ur : memref<16x16xf32, #hivm.address_space<ub>>) outs(%c : memref<16x16xf32, #hivm.address_space<gm>>)
    return
  }
}
