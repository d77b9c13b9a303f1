// Fast tier: cce/mix.mlir stands in (a MIX kernel printed as CCE and emulated).
// UNSUPPORTED: fast-tier
// Vector core -> cube through L1: the UB tile becomes NZ in L1 by one strided burst copy
// per 32-byte column block; the vector core's cross-core set releases the cube.
// dav-3510 prints, builds against tools/cce-emu and runs (ascend-sim --via cce). The
// 910B has no UB -> L1 path: compiled for it, or planned for the 950 and printed for
// dav-c220, the copy is a located refusal (the printer checks the chip printed for).
// RUN: ascend-opt %s -p 'ascend-compile{target=cce}' -t 'cce{arch=dav-3510}' | filecheck %s --check-prefix=A5
// RUN: ascend-sim %s --via cce --arch dav-3510 --json | filecheck %s --check-prefix=EMU
// RUN: not ascend-opt %s -p 'ascend-compile{target=cce chip=ascend910b}' 2>&1 | filecheck %s --check-prefix=C220
// RUN: not ascend-opt %s -p 'ascend-compile{target=cce}' -t 'cce{arch=dav-c220}' 2>&1 | filecheck %s --check-prefix=CROSS
// RUN: not ascend-sim %s --via cce --arch dav-c220 --json 2>&1 | filecheck %s --check-prefix=C220
// EMU: "deadlock": false, "unbalanced_flags": []
// EMU-SAME: "ok": true
// C220:  mix-ub-to-l1.mlir:{{[0-9]+}}:7: error: 'hivm.hir.copy' op copy ub -> cbuf needs a chip with that path (ascend950), the module targets Ascend910B1 (ascend910b)
// CROSS: mix-ub-to-l1.mlir:{{[0-9]+}}:7: error: 'hivm.hir.copy' op copy ub -> cbuf needs a chip with that path (ascend950), the module targets {{.*}} (ascend910b) (the IR was planned and synced for ascend950 (dav-3510): compile it for the chip printed for, run -p 'ascend-compile{target=cce chip=ascend910b}', before -t 'cce{arch=dav-c220}')

// A5:   extern "C" __global__ __mix__(1, 1) void abs_mm
func.func @abs_mm(%ga: memref<32x64xf16, #hivm.address_space<gm>>, %gb: memref<64x32xf16, #hivm.address_space<gm>>, %gc: memref<32x32xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<MIX>} {
  %true = arith.constant true
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %ua = memref.alloc() : memref<32x64xf16, #hivm.address_space<ub>>
  %la = memref.alloc() : memref<32x64xf16, #hivm.address_space<cbuf>>
  %lb = memref.alloc() : memref<64x32xf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<32x32xf32, #hivm.address_space<cc>>
  hivm.hir.load ins(%ga : memref<32x64xf16, #hivm.address_space<gm>>) outs(%ua : memref<32x64xf16, #hivm.address_space<ub>>)
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  hivm.hir.vabs ins(%ua : memref<32x64xf16, #hivm.address_space<ub>>) outs(%ua : memref<32x64xf16, #hivm.address_space<ub>>)
  hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
  // (the cube side prints first: its wait, then the vector side's copy and set)
  // A5:        asc_sync_intra_wait(PIPE_MTE1, 2);
    // 64 f16 columns are 4 column blocks of 16: 32 rows of one 32-byte block each, source
  // rows 128 bytes apart (gap 3 blocks), the destination column blocks 32 rows x 16 apart
  // A5:        for (int32_t cb = 0; cb < 4; ++cb) {
  // A5-NEXT:     asc_copy_ub2l1(la + cb * 512, ua + cb * 16, 32, 1, 3, 0);
  // A5-NEXT:   }
  // A5-NEXT:   asc_sync_intra_arrive(PIPE_MTE3, 2);
      hivm.hir.copy ins(%ua : memref<32x64xf16, #hivm.address_space<ub>>) outs(%la : memref<32x64xf16, #hivm.address_space<cbuf>>)
  hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE3>, <PIPE_MTE1>] flag = 2
  hivm.hir.sync_block_wait[<CUBE>, <PIPE_MTE3>, <PIPE_MTE1>] flag = 2
  hivm.hir.nd2nz {dst_continuous} ins(%gb : memref<64x32xf16, #hivm.address_space<gm>>) outs(%lb : memref<64x32xf16, #hivm.address_space<cbuf>>)
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
  hivm.hir.mmadL1 ins(%la, %lb, %true, %c32, %c64, %c32 : memref<32x64xf16, #hivm.address_space<cbuf>>, memref<64x32xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<32x32xf32, #hivm.address_space<cc>>)
  hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
  hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<32x32xf32, #hivm.address_space<cc>>) outs(%gc : memref<32x32xf32, #hivm.address_space<gm>>)
  return
}
