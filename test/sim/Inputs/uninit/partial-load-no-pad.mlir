// A load of n x 16 rows (n = 10 at run time) into a 16x16 UB buffer without padding
// writes the first n rows only; vrelu then reads all 16 rows: 16 - n rows were never
// written. (Without padding the shapes agree where both are known: a runtime size is
// the only way a partial copy gets past the verifier.)
module {
  func.func @relu(%x: memref<16x16xf32, #hivm.address_space<gm>>, %y: memref<16x16xf32, #hivm.address_space<gm>>, %n: index)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %in = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %out = memref.alloc() : memref<16x16xf32, #hivm.address_space<ub>>
    %part = memref.subview %x[0, 0] [%n, 16] [1, 1] : memref<16x16xf32, #hivm.address_space<gm>> to memref<?x16xf32, strided<[16, 1]>, #hivm.address_space<gm>>
    hivm.hir.load ins(%part : memref<?x16xf32, strided<[16, 1]>, #hivm.address_space<gm>>) outs(%in : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.vrelu ins(%in : memref<16x16xf32, #hivm.address_space<ub>>) outs(%out : memref<16x16xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.store ins(%out : memref<16x16xf32, #hivm.address_space<ub>>) outs(%y : memref<16x16xf32, #hivm.address_space<gm>>)
    return
  }
}
