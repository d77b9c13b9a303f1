// Planned buffers (pointer_cast into the UB arena): the load fills bytes [0, 512), the
// add reads a second operand at [512, 1024) that nothing wrote; the report names the
// pointer_cast of the never-written view.
module {
  func.func @add(%x: memref<128xf32, #hivm.address_space<gm>>, %y: memref<128xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %c0 = arith.constant 0 : i64
    %c512 = arith.constant 512 : i64
    %c1024 = arith.constant 1024 : i64
    %a = hivm.hir.pointer_cast(%c0) : memref<128xf32, #hivm.address_space<ub>>
    %b = hivm.hir.pointer_cast(%c512) : memref<128xf32, #hivm.address_space<ub>>
    %s = hivm.hir.pointer_cast(%c1024) : memref<128xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%x : memref<128xf32, #hivm.address_space<gm>>) outs(%a : memref<128xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.vadd ins(%a, %b : memref<128xf32, #hivm.address_space<ub>>, memref<128xf32, #hivm.address_space<ub>>) outs(%s : memref<128xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.store ins(%s : memref<128xf32, #hivm.address_space<ub>>) outs(%y : memref<128xf32, #hivm.address_space<gm>>)
    return
  }
}
