// Bad input (hivm): set_flag with event id 9 (the chip has 8 per pipe pair).
// ARGS: -p ascend-verify-sync
// ERROR: static event id EVENT_ID9 is out of range (EVENT_ID0..EVENT_ID7, 8 per pipe pair)
module {
  func.func @k(%g: memref<16xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID9>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID9>]
    return
  }
}
