// Hand-synced hivm form of matmul_epilogue3.mlir (beside it; for test/sim/examples once the
// kernel moves to examples/), a
// MIX kernel on Ascend 950: Y = silu(X Wg) * (X Wu) + R, single-buffered.
//
// Cube core: X goes to L1 before the loop; the first iteration's MTE2 -> MTE1 flag
// (after the weight tiles, on the in-order MTE2 pipe) covers it too. Per iteration the
// two weight tiles go to L1 (MTE2 -> MTE1), the two mmadL1 wait until the
// previous fixpipes have read L0C (FIX -> M, loop-carried) and free L1 afterwards
// (MTE1 -> MTE2, loop-carried); the fixpipes wait for the mmads (M -> FIX) and for the
// vector core to have consumed the previous ug/uu (cross-core flag 1, V -> FIX,
// loop-carried), then hand ug/uu over (cross-core flag 0, FIX -> V).
// Vector core: the residual load waits until the previous vadd read ur (V -> MTE2,
// loop-carried) and signals MTE2 -> V; the epilogue waits for flag 0 and for the
// previous store to have read ut (MTE3 -> V, loop-carried); dependent V ops are
// separated by pipe_barrier[PIPE_V]; the store waits for the last vadd (V -> MTE3).
// Loop-carried flags are primed before the loop and drained after it.
module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  func.func @matmul_epilogue3(%x: memref<256x128xbf16, #hivm.address_space<gm>>, %wg: memref<128x256xbf16, #hivm.address_space<gm>>, %wu: memref<128x256xbf16, #hivm.address_space<gm>>, %r: memref<256x256xf32, #hivm.address_space<gm>>, %y: memref<256x256xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<MIX>, ascend.grid = 4 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %true = arith.constant true
    %minus_one = arith.constant -1.000000e+00 : f32
    %one = arith.constant 1.000000e+00 : f32
    %block_i64 = hivm.hir.get_block_idx -> i64
    %block = arith.index_cast %block_i64 : i64 to index
    %m0 = arith.muli %block, %c64 : index
    %lx = memref.alloc() : memref<64x128xbf16, #hivm.address_space<cbuf>>
    %lg = memref.alloc() : memref<128x64xbf16, #hivm.address_space<cbuf>>
    %lu = memref.alloc() : memref<128x64xbf16, #hivm.address_space<cbuf>>
    %cg = memref.alloc() : memref<64x64xf32, #hivm.address_space<cc>>
    %cu = memref.alloc() : memref<64x64xf32, #hivm.address_space<cc>>
    %ug = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    %uu = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    %ut = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    %ur = memref.alloc() : memref<64x64xf32, #hivm.address_space<ub>>
    %xs = memref.subview %x[%m0, 0] [64, 128] [1, 1] : memref<256x128xbf16, #hivm.address_space<gm>> to memref<64x128xbf16, strided<[128, 1], offset: ?>, #hivm.address_space<gm>>
    hivm.hir.nd2nz {dst_continuous} ins(%xs : memref<64x128xbf16, strided<[128, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lx : memref<64x128xbf16, #hivm.address_space<cbuf>>)
    hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID1>]
    hivm.hir.set_flag[<PIPE_FIX>, <PIPE_M>, <EVENT_ID0>]
    hivm.hir.sync_block_set[<VECTOR>, <PIPE_V>, <PIPE_FIX>] flag = 1
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    scf.for %j = %c0 to %c4 step %c1 {
      %n0 = arith.muli %j, %c64 : index
      %wgs = memref.subview %wg[0, %n0] [128, 64] [1, 1] : memref<128x256xbf16, #hivm.address_space<gm>> to memref<128x64xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      %wus = memref.subview %wu[0, %n0] [128, 64] [1, 1] : memref<128x256xbf16, #hivm.address_space<gm>> to memref<128x64xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      %rs = memref.subview %r[%m0, %n0] [64, 64] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<64x64xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      %ys = memref.subview %y[%m0, %n0] [64, 64] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<64x64xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID1>]
      hivm.hir.nd2nz {dst_continuous} ins(%wgs : memref<128x64xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lg : memref<128x64xbf16, #hivm.address_space<cbuf>>)
      hivm.hir.nd2nz {dst_continuous} ins(%wus : memref<128x64xbf16, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%lu : memref<128x64xbf16, #hivm.address_space<cbuf>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID1>]
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID1>]
      %real_m = arith.constant 64 : index
      %real_k = arith.constant 128 : index
      %real_n = arith.constant 64 : index
      hivm.hir.wait_flag[<PIPE_FIX>, <PIPE_M>, <EVENT_ID0>]
      hivm.hir.mmadL1 ins(%lx, %lg, %true, %real_m, %real_k, %real_n : memref<64x128xbf16, #hivm.address_space<cbuf>>, memref<128x64xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%cg : memref<64x64xf32, #hivm.address_space<cc>>)
      %real_m_1 = arith.constant 64 : index
      %real_k_1 = arith.constant 128 : index
      %real_n_1 = arith.constant 64 : index
      hivm.hir.mmadL1 ins(%lx, %lu, %true, %real_m_1, %real_k_1, %real_n_1 : memref<64x128xbf16, #hivm.address_space<cbuf>>, memref<128x64xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%cu : memref<64x64xf32, #hivm.address_space<cc>>)
      hivm.hir.set_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID1>]
      hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
      hivm.hir.sync_block_wait[<CUBE>, <PIPE_V>, <PIPE_FIX>] flag = 1
      hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%cg : memref<64x64xf32, #hivm.address_space<cc>>) outs(%ug : memref<64x64xf32, #hivm.address_space<ub>>)
      hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%cu : memref<64x64xf32, #hivm.address_space<cc>>) outs(%uu : memref<64x64xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_FIX>, <PIPE_M>, <EVENT_ID0>]
      hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.load ins(%rs : memref<64x64xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%ur : memref<64x64xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 0
      hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.vmul ins(%ug, %minus_one : memref<64x64xf32, #hivm.address_space<ub>>, f32) outs(%ut : memref<64x64xf32, #hivm.address_space<ub>>)
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vexp ins(%ut : memref<64x64xf32, #hivm.address_space<ub>>) outs(%ut : memref<64x64xf32, #hivm.address_space<ub>>)
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vadd ins(%ut, %one : memref<64x64xf32, #hivm.address_space<ub>>, f32) outs(%ut : memref<64x64xf32, #hivm.address_space<ub>>)
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vdiv ins(%ug, %ut : memref<64x64xf32, #hivm.address_space<ub>>, memref<64x64xf32, #hivm.address_space<ub>>) outs(%ut : memref<64x64xf32, #hivm.address_space<ub>>)
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vmul ins(%ut, %uu : memref<64x64xf32, #hivm.address_space<ub>>, memref<64x64xf32, #hivm.address_space<ub>>) outs(%ut : memref<64x64xf32, #hivm.address_space<ub>>)
      hivm.hir.sync_block_set[<VECTOR>, <PIPE_V>, <PIPE_FIX>] flag = 1
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vadd ins(%ut, %ur : memref<64x64xf32, #hivm.address_space<ub>>, memref<64x64xf32, #hivm.address_space<ub>>) outs(%ut : memref<64x64xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
      hivm.hir.store ins(%ut : memref<64x64xf32, #hivm.address_space<ub>>) outs(%ys : memref<64x64xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>)
      hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    } {ascend.num_stages = 2 : i64}
    hivm.hir.wait_flag[<PIPE_MTE1>, <PIPE_MTE2>, <EVENT_ID1>]
    hivm.hir.wait_flag[<PIPE_FIX>, <PIPE_M>, <EVENT_ID0>]
    hivm.hir.sync_block_wait[<CUBE>, <PIPE_V>, <PIPE_FIX>] flag = 1
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    func.return
  }
}

