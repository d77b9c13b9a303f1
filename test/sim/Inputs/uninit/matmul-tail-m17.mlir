// A tail tile: 17 rows of A loaded into a 32-row L1 buffer, mmadL1 with m = 17 reads only
// those rows (and writes C, init = true): nothing never-written is read.
module {
  func.func @mm(%a: memref<17x32xf16, #hivm.address_space<gm>>, %b: memref<32x32xf16, #hivm.address_space<gm>>,
                %c: memref<17x32xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIC>} {
    %true = arith.constant true
    %c17 = arith.constant 17 : index
    %c32 = arith.constant 32 : index
    %la = memref.alloc() : memref<32x32xf16, #hivm.address_space<cbuf>>
    %lb = memref.alloc() : memref<32x32xf16, #hivm.address_space<cbuf>>
    %acc = memref.alloc() : memref<32x32xf32, #hivm.address_space<cc>>
    %la17 = memref.subview %la[0, 0] [17, 32] [1, 1] : memref<32x32xf16, #hivm.address_space<cbuf>> to memref<17x32xf16, strided<[32, 1]>, #hivm.address_space<cbuf>>
    hivm.hir.nd2nz {dst_continuous} ins(%a : memref<17x32xf16, #hivm.address_space<gm>>) outs(%la17 : memref<17x32xf16, strided<[32, 1]>, #hivm.address_space<cbuf>>)
    hivm.hir.nd2nz {dst_continuous} ins(%b : memref<32x32xf16, #hivm.address_space<gm>>) outs(%lb : memref<32x32xf16, #hivm.address_space<cbuf>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
    hivm.hir.mmadL1 ins(%la, %lb, %true, %c17, %c32, %c32 : memref<32x32xf16, #hivm.address_space<cbuf>>, memref<32x32xf16, #hivm.address_space<cbuf>>, i1, index, index, index) outs(%acc : memref<32x32xf32, #hivm.address_space<cc>>)
    hivm.hir.set_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_M>, <PIPE_FIX>, <EVENT_ID0>]
    %acc17 = memref.subview %acc[0, 0] [17, 32] [1, 1] : memref<32x32xf32, #hivm.address_space<cc>> to memref<17x32xf32, strided<[32, 1]>, #hivm.address_space<cc>>
    hivm.hir.fixpipe {dma_mode = #hivm.dma_mode<nz2nd>} ins(%acc17 : memref<17x32xf32, strided<[32, 1]>, #hivm.address_space<cc>>) outs(%c : memref<17x32xf32, #hivm.address_space<gm>>)
    return
  }
}
