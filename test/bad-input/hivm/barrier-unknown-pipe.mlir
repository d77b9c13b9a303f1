// Bad input (hivm): pipe_barrier on a pipe that does not exist.
// ERROR: Expected `PIPE_S`, `PIPE_V`
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    hivm.hir.pipe_barrier[<PIPE_X>]
    return
  }
}
