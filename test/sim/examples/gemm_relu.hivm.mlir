// Hand-synced hivm form of examples/gemm_relu.mlir (the oracle's calibration), a MIX
// kernel on Ascend 950: the cube core accumulates a 128x128 fp32 tile over a K loop of 4
// steps of 64 (single-buffered L1, flags as in gemm_910b), the fixpipe writes it into the
// vector core's ub, and the vector core applies relu and stores it.
//
// Cross-core: sync_block_set on the cube's FIX pipe after the fixpipe, sync_block_wait
// on the vector's V pipe before vrelu (flag 0). On the vector core V -> MTE3 orders the
// store after vrelu.
module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  func.func @gemm_relu(%a: memref<256x256xbf16, #hivm.address_space<gm>>, %b: memref<256x256xbf16, #hivm.address_space<gm>>, %c: memref<256x256xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<MIX>, ascend.grid = 4 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %cK = arith.constant 64 : index
    %block_i64 = hivm.hir.get_block_idx -> i64
    %block = arith.index_cast %block_i64 : i64 to index
    %bm = arith.divui %block, %c2 : index
    %bn = arith.remui %block, %c2 : index
    %m0 = arith.muli %bm, %c128 : index
    %n0 = arith.muli %bn, %c128 : index
    %la = memref.alloc() : memref<128x64xbf16, #hivm.address_space<cbuf>>
    %lb = memref.alloc() : memref<64x128xbf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<128x128xf32, #hivm.address_space<cc>>
    %uc = memref.alloc() : memref<128x128xf32, #hivm.address_space<ub>>
    %ur = memref.alloc() : memref<128x128xf32, #hivm.address_space<ub>>
    hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
    scf.for %k = %c0 to %c4 step %c1 {
      %k0 = arith.muli %k, %cK : index
      %as = memref.subview %a[%m0, %k0] [128, 64] [1, 1] : memref<256x256xbf16, #hivm.address_space<gm>> to memref<128x64xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      %bs = memref.subview %b[%k0, %n0] [64, 128] [1, 1] : memref<256x256xbf16, #hivm.address_space<gm>> to memref<64x128xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      %first = arith.cmpi eq, %k, %c0 : index
      hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.nd2nz {dst_continuous} ins(%as : memref<128x64xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%la : memref<128x64xbf16, #hivm.address_space<cbuf>>)
      hivm.hir.nd2nz {dst_continuous} ins(%bs : memref<64x128xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lb : memref<64x128xbf16, #hivm.address_space<cbuf>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
      hivm.hir.mmadL1 ins(%la, %lb, %first, %c128, %cK, %c128 : memref<128x64xbf16, #hivm.address_space<cbuf>>, memref<64x128xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<128x128xf32, #hivm.address_space<cc>>)
      hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
    }
    hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<128x128xf32, #hivm.address_space<cc>>) outs(%uc : memref<128x128xf32, #hivm.address_space<ub>>)
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 0
    hivm.hir.vrelu ins(%uc : memref<128x128xf32, #hivm.address_space<ub>>) outs(%ur : memref<128x128xf32, #hivm.address_space<ub>>)
    %cs = memref.subview %c[%m0, %n0] [128, 128] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<128x128xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.store ins(%ur : memref<128x128xf32, #hivm.address_space<ub>>) outs(%cs : memref<128x128xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>)
    return
  }
}
