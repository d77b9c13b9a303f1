// A MIX kernel (one function) prints as one `__mix__(1, 2)` function with a cube side and
// a vector side; each keeps its core's ops and the scalar code they need. The dual
// fixpipe splits L0C rows between the two vector cores; the cube's cross-core set
// reaches vector core 1 at id + 16. The emulation runs it as three threads.
// (the passes ascend-compile{target=cce} would run on this synced input, without its
// split-mix-kernel: the one-function form is what this file prints)
// RUN: ascend-opt %s -p 'ascend-plan-memory{reuse=false},ascend-lower-mmad-l0' -t cce | filecheck %s
// RUN: ascend-sim %s --via cce --json | filecheck %s --check-prefix=EMU
// RUN: not ascend-opt %s -p 'ascend-plan-memory{reuse=false},ascend-lower-mmad-l0' -t 'cce{arch=dav-c220}' 2>&1 | filecheck %s --check-prefix=C220
// EMU: "via": "cce"
// EMU-SAME: "deadlock": false, "unbalanced_flags": []
// EMU-SAME: "ok": true
// C220: mix.mlir:[[# @LINE + 41]]:5: error: 'hivm.hir.fixpipe' op fixpipe cc -> ub needs a chip with that path (ascend950), the module targets {{.*}} (ascend910b)

// CHECK:      extern "C" __global__ __mix__(1, 2) void mm_relu_dual(__gm__ half *a, __gm__ half *b, __gm__ float *c) {
// CHECK-NEXT:   asc_init();
// CHECK-NEXT:   if ASC_IS_AIC {
// CHECK-NOT:    vf_relu_f32(ur
// CHECK:          asc_copy_l0c2ub(uc, acc, 64, 128, 64, 128, 0, (asc_dual_dst_mode)1, (asc_unit_flag_mode)0, (asc_quant_mode)0, (asc_relu_pre_mode)0, 0, 1, 0, 0);
// CHECK-NEXT:     asc_sync_intra_arrive(PIPE_FIX, 1);
// CHECK-NEXT:     asc_sync_intra_arrive(PIPE_FIX, 17);
// CHECK:        }
// CHECK-NEXT:   if ASC_IS_AIV {
// CHECK-NOT:      asc_mmad(
// CHECK:          asc_sync_intra_wait(PIPE_V, 1);
// CHECK-NEXT:     vf_relu_f32(ur, uc, 4096);
// CHECK-NEXT:     asc_sync_notify(PIPE_V, PIPE_MTE3, (event_t)0);
// CHECK-NEXT:     asc_sync_wait(PIPE_V, PIPE_MTE3, (event_t)0);
// CHECK-NEXT:     const int64_t sub = (int64_t)asc_get_sub_block_id();
// CHECK:          __gm__ float *cs = c + row * 64;
// CHECK-NEXT:     asc_copy_ub2gm_align(cs, ur, 1, 16384, (asc_store_l2_cache_mode)0, 16384, 16384);
// CHECK-NEXT:   }
// CHECK-NEXT: }
module {
  func.func @mm_relu_dual(%a: memref<128x64xf16, #hivm.address_space<gm>>, %b: memref<64x64xf16, #hivm.address_space<gm>>,
                          %c: memref<128x64xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<MIX>} {
    %true = arith.constant true
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %la = memref.alloc() : memref<128x64xf16, #hivm.address_space<cbuf>>
    %lb = memref.alloc() : memref<64x64xf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<128x64xf32, #hivm.address_space<cc>>
    %uc = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    %ur = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    hivm.hir.nd2nz {dst_continuous} ins(%a : memref<128x64xf16, #hivm.address_space<gm>>) outs(%la : memref<128x64xf16, #hivm.address_space<cbuf>>)
    hivm.hir.nd2nz {dst_continuous} ins(%b : memref<64x64xf16, #hivm.address_space<gm>>) outs(%lb : memref<64x64xf16, #hivm.address_space<cbuf>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
    hivm.hir.mmadL1 ins(%la, %lb, %true, %c128, %c64, %c64 : memref<128x64xf16, #hivm.address_space<cbuf>>, memref<64x64xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<128x64xf32, #hivm.address_space<cc>>)
    hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<128x64xf32, #hivm.address_space<cc>>) outs(%uc : memref<64x64xf32, #hivm.address_space<ub>>) dual_dst_mode = <ROW_SPLIT>
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 1
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 1
    hivm.hir.vrelu ins(%uc : memref<64x64xf32, #hivm.address_space<ub>>) outs(%ur : memref<64x64xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    %sub = hivm.hir.get_sub_block_idx -> i64
    %sub_index = arith.index_cast %sub : i64 to index
    %row = arith.muli %sub_index, %c64 : index
    %cs = memref.subview %c[%row, 0] [64, 64] [1, 1] : memref<128x64xf32, #hivm.address_space<gm>> to memref<64x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.store ins(%ur : memref<64x64xf32, #hivm.address_space<ub>>) outs(%cs : memref<64x64xf32, strided<[64, 1], offset: ?>, #hivm.address_space<gm>>)
    return
  }
}
