// RUN: ascend-sim %s --json | filecheck %s --check-prefix=EIGHT
// RUN: not ascend-sim %s --chip %S/../transforms/ascend-insert-sync/Inputs/four-events.toml 2>&1 | filecheck %s --check-prefix=FOUR
// The simulator takes the chip file's flag counts: EVENT_ID5 exists on the 950 (8 ids per
// pipe pair), not on a chip file with events_per_pipe_pair = 4.
// EIGHT: "races": []
// FOUR: chip-file-events.mlir:12:5: error: 'hivm.hir.set_flag' op event id 5 is out of range (0..3: the chip has 4 per pipe pair)
module {
  func.func @k(%x: memref<256xf32, #hivm.address_space<gm>>, %y: memref<256xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>} {
    %u = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
    %v = memref.alloc() : memref<256xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%x : memref<256xf32, #hivm.address_space<gm>>) outs(%u : memref<256xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID5>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID5>]
    hivm.hir.vexp ins(%u : memref<256xf32, #hivm.address_space<ub>>) outs(%v : memref<256xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID5>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID5>]
    hivm.hir.store ins(%v : memref<256xf32, #hivm.address_space<ub>>) outs(%y : memref<256xf32, #hivm.address_space<gm>>)
    return
  }
}
