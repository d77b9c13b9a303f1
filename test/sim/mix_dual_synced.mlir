// RUN: ascend-sim %s --json --perturb 3 | filecheck %s
// A MIX kernel on one cube core and two vector cores: the cube computes a 128x64 fp32
// tile, the fixpipe splits it by rows into the unified buffers of the two vector cores
// (dual destination, each ub tile half as tall), a cross-core flag hands over, and each
// vector core applies relu and stores its half (rows chosen by get_sub_block_idx).
// CHECK: "races": []
// CHECK-SAME: "deadlock": false
// CHECK-SAME: "unbalanced_flags": []
// CHECK-SAME: "cores": ["cube", "vec0", "vec1"]
// CHECK-SAME: "ok": true
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
