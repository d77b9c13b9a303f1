// vrelu reads the loaded UB buffer without waiting for the load (its set/wait pair is
// missing): a race, reported once (not also as a read of never-written memory).
module {
  func.func @relu(%x: memref<16x16xf32, #hivm.address_space<gm>>, %y: memref<16x16xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %loaded = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %out = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%x : memref<16x16xf32, #hivm.address_space<gm>>) outs(%loaded : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.vrelu ins(%loaded : memref<16x16xf32, #hivm.address_space<ub>>) outs(%out : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.store ins(%out : memref<16x16xf32, #hivm.address_space<ub>>) outs(%y : memref<16x16xf32, #hivm.address_space<gm>>)
    return
  }
}
