// The only K step of this matmul has init = false: it accumulates onto L0C that no op wrote.
module {
  func.func @mm(%a: memref<32x32xf16, #hivm.address_space<gm>>, %b: memref<32x32xf16, #hivm.address_space<gm>>,
                %c: memref<32x32xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>} {
    %false = arith.constant false
    %c32 = arith.constant 32 : index
    %la = memref.alloc() : memref<32x32xf16, #hivm.address_space<cbuf>>
    %lb = memref.alloc() : memref<32x32xf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<32x32xf32, #hivm.address_space<cc>>
    hivm.hir.nd2nz {dst_continuous} ins(%a : memref<32x32xf16, #hivm.address_space<gm>>) outs(%la : memref<32x32xf16, #hivm.address_space<cbuf>>)
    hivm.hir.nd2nz {dst_continuous} ins(%b : memref<32x32xf16, #hivm.address_space<gm>>) outs(%lb : memref<32x32xf16, #hivm.address_space<cbuf>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
    hivm.hir.mmadL1 ins(%la, %lb, %false, %c32, %c32, %c32 : memref<32x32xf16, #hivm.address_space<cbuf>>, memref<32x32xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<32x32xf32, #hivm.address_space<cc>>)
    hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc : memref<32x32xf32, #hivm.address_space<cc>>) outs(%c : memref<32x32xf32, #hivm.address_space<gm>>)
    return
  }
}
