// A kernel (hacc.entry) and a helper function that is no kernel.
// The vector core applies relu to a UB buffer that no copy filled (the load went to
// another buffer), as bishengir's gemm_relu output once did: the store writes garbage.
module {
  func.func @relu(%x: memref<16x16xf32, #hivm.address_space<gm>>, %y: memref<16x16xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %loaded = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %unloaded = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %out = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%x : memref<16x16xf32, #hivm.address_space<gm>>) outs(%loaded : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.vrelu ins(%loaded : memref<16x16xf32, #hivm.address_space<ub>>) outs(%out : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.store ins(%out : memref<16x16xf32, #hivm.address_space<ub>>) outs(%y : memref<16x16xf32, #hivm.address_space<gm>>)
    return
  }
  func.func @helper(%x: memref<16x16xf32, #hivm.address_space<gm>>) {
    return
  }
}
