// A 128x128x128 bf16 matmul, one tile, hand-synced: MTE2 -> MTE1 flag before mmadL1.
module attributes {hacc.target = #hacc.target<"Ascend910B1">} {
  func.func @m(%a: memref<128x128xbf16, #hivm.address_space<gm>>, %b: memref<128x128xbf16, #hivm.address_space<gm>>, %c: memref<128x128xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>} {
    %c128 = arith.constant 128 : index
    %true = arith.constant true
    %la = memref.alloc() : memref<128x128xbf16, #hivm.address_space<cbuf>>
    %lb = memref.alloc() : memref<128x128xbf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<128x128xf32, #hivm.address_space<cc>>
    hivm.hir.nd2nz {dst_continuous} ins(%a : memref<128x128xbf16, #hivm.address_space<gm>>) outs(%la : memref<128x128xbf16, #hivm.address_space<cbuf>>)
    hivm.hir.nd2nz {dst_continuous} ins(%b : memref<128x128xbf16, #hivm.address_space<gm>>) outs(%lb : memref<128x128xbf16, #hivm.address_space<cbuf>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
    hivm.hir.mmadL1 ins(%la, %lb, %true, %c128, %c128, %c128 : memref<128x128xbf16, #hivm.address_space<cbuf>>, memref<128x128xbf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<128x128xf32, #hivm.address_space<cc>>)
    hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<128x128xf32, #hivm.address_space<cc>>) outs(%c : memref<128x128xf32, #hivm.address_space<gm>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    func.return
  }
}
