// bench/safety/mutants.py's mutant of bench/e2e/chains.py's random_kernel(3) compiled for the
// ascend950: the set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>] at the loop's end moved before the
// store of %b4_u1 it covered (line 195), so the next iteration's vabs rewrites %b4_u1 while the
// store may still read it. The ub arena has more than 128 (op, view) pairs and MTE2 never
// learns of MTE3: the race detector's per-memory cap dropped the store's record (test_sync_mutants).
builtin.module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  func.func @chains(%x: memref<4x80xf32, #hivm.address_space<gm>>, %y: memref<4x80xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>, ascend.grid = 1 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ctrips = arith.constant 4 : index
    %c0_i64 = arith.constant 0 : i64
    %c64_i64 = arith.constant 64 : i64
    %c128_i64 = arith.constant 128 : i64
    %c192_i64 = arith.constant 192 : i64
    %c256_i64 = arith.constant 256 : i64
    %c320_i64 = arith.constant 320 : i64
    %c384_i64 = arith.constant 384 : i64
    %c448_i64 = arith.constant 448 : i64
    %c512_i64 = arith.constant 512 : i64
    %c576_i64 = arith.constant 576 : i64
    %c640_i64 = arith.constant 640 : i64
    %c704_i64 = arith.constant 704 : i64
    %c768_i64 = arith.constant 768 : i64
    %c832_i64 = arith.constant 832 : i64
    %c896_i64 = arith.constant 896 : i64
    %c960_i64 = arith.constant 960 : i64
    %c1024_i64 = arith.constant 1024 : i64
    %c1088_i64 = arith.constant 1088 : i64
    %c1152_i64 = arith.constant 1152 : i64
    %c1216_i64 = arith.constant 1216 : i64
    %c2 = arith.constant 2 : index
    %a0 = hivm.hir.pointer_cast(%c0_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x16xf32, #hivm.address_space<ub>>
    %a0_u1 = hivm.hir.pointer_cast(%c64_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x16xf32, #hivm.address_space<ub>>
    %b0 = hivm.hir.pointer_cast(%c128_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x16xf32, #hivm.address_space<ub>>
    %b0_u1 = hivm.hir.pointer_cast(%c192_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x16xf32, #hivm.address_space<ub>>
    %a1 = hivm.hir.pointer_cast(%c256_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x16xf32, #hivm.address_space<ub>>
    %a1_u1 = hivm.hir.pointer_cast(%c320_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x16xf32, #hivm.address_space<ub>>
    %b1 = hivm.hir.pointer_cast(%c384_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x16xf32, #hivm.address_space<ub>>
    %b1_u1 = hivm.hir.pointer_cast(%c448_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x16xf32, #hivm.address_space<ub>>
    %a2 = hivm.hir.pointer_cast(%c512_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x16xf32, #hivm.address_space<ub>>
    %a2_u1 = hivm.hir.pointer_cast(%c576_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x16xf32, #hivm.address_space<ub>>
    %b2 = hivm.hir.pointer_cast(%c640_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x16xf32, #hivm.address_space<ub>>
    %b2_u1 = hivm.hir.pointer_cast(%c704_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x16xf32, #hivm.address_space<ub>>
    %a3 = hivm.hir.pointer_cast(%c768_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x16xf32, #hivm.address_space<ub>>
    %a3_u1 = hivm.hir.pointer_cast(%c832_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x16xf32, #hivm.address_space<ub>>
    %b3 = hivm.hir.pointer_cast(%c896_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x16xf32, #hivm.address_space<ub>>
    %b3_u1 = hivm.hir.pointer_cast(%c960_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x16xf32, #hivm.address_space<ub>>
    %a4 = hivm.hir.pointer_cast(%c1024_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x16xf32, #hivm.address_space<ub>>
    %a4_u1 = hivm.hir.pointer_cast(%c1088_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x16xf32, #hivm.address_space<ub>>
    %b4 = hivm.hir.pointer_cast(%c1152_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x16xf32, #hivm.address_space<ub>>
    %b4_u1 = hivm.hir.pointer_cast(%c1216_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x16xf32, #hivm.address_space<ub>>
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID2>]
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID3>]
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID4>]
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    scf.for %i = %c0 to %ctrips step %c2 {
      %row = arith.muli %i, %c1 : index
      %x0 = memref.subview %x[%row, 0] [1, 16] [1, 1] : memref<4x80xf32, #hivm.address_space<gm>> to memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.load ins(%x0 : memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>) outs(%a0 : memref<1x16xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 91, ii = 13, stage = 0, start = 7>}
      %x1 = memref.subview %x[%row, 16] [1, 16] [1, 1] : memref<4x80xf32, #hivm.address_space<gm>> to memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
      hivm.hir.load ins(%x1 : memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>) outs(%a1 : memref<1x16xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 91, ii = 13, stage = 0, start = 20>}
      %x2 = memref.subview %x[%row, 32] [1, 16] [1, 1] : memref<4x80xf32, #hivm.address_space<gm>> to memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID2>]
      hivm.hir.load ins(%x2 : memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>) outs(%a2 : memref<1x16xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 91, ii = 13, stage = 0, start = 33>}
      %x3 = memref.subview %x[%row, 48] [1, 16] [1, 1] : memref<4x80xf32, #hivm.address_space<gm>> to memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%x3 : memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>) outs(%a3 : memref<1x16xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 91, ii = 13, stage = 0, start = 46>}
      %x4 = memref.subview %x[%row, 64] [1, 16] [1, 1] : memref<4x80xf32, #hivm.address_space<gm>> to memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID3>]
      hivm.hir.load ins(%x4 : memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>) outs(%a4 : memref<1x16xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 91, ii = 13, stage = 0, start = 59>}
      %i_1 = arith.addi %i, %c1 : index
      %row_1 = arith.muli %i_1, %c1 : index
      %x0_1 = memref.subview %x[%row_1, 0] [1, 16] [1, 1] : memref<4x80xf32, #hivm.address_space<gm>> to memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%x0_1 : memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>) outs(%a0_u1 : memref<1x16xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 91, ii = 13, stage = 0, start = 72>}
      %x1_1 = memref.subview %x[%row_1, 16] [1, 16] [1, 1] : memref<4x80xf32, #hivm.address_space<gm>> to memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%x1_1 : memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>) outs(%a1_u1 : memref<1x16xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 91, ii = 13, stage = 0, start = 85>}
      %x2_1 = memref.subview %x[%row_1, 32] [1, 16] [1, 1] : memref<4x80xf32, #hivm.address_space<gm>> to memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%x2_1 : memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>) outs(%a2_u1 : memref<1x16xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 91, ii = 13, stage = 0, start = 98>}
      %x3_1 = memref.subview %x[%row_1, 48] [1, 16] [1, 1] : memref<4x80xf32, #hivm.address_space<gm>> to memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID4>]
      hivm.hir.load ins(%x3_1 : memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>) outs(%a3_u1 : memref<1x16xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 91, ii = 13, stage = 0, start = 111>}
      %x4_1 = memref.subview %x[%row_1, 64] [1, 16] [1, 1] : memref<4x80xf32, #hivm.address_space<gm>> to memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.load ins(%x4_1 : memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>) outs(%a4_u1 : memref<1x16xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 91, ii = 13, stage = 0, start = 124>}
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 408>} ins(%a0 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%b0 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 409>} ins(%b0, %b0 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%a0 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 410>} ins(%a0 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%b0 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 411>} ins(%b0, %b0 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%a0 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 412>} ins(%a0 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%b0 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 413>} ins(%b0, %b0 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%a0 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 414>} ins(%a0 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%b0 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 415>} ins(%a1, %a1 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%b1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 416>} ins(%b1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%a1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 417>} ins(%a1, %a1 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%b1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 418>} ins(%b1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%a1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 419>} ins(%a1, %a1 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%b1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 420>} ins(%b1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%a1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 421>} ins(%a1, %a1 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%b1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID1>]
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 422>} ins(%a2 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%b2 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 423>} ins(%b2, %b2 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%a2 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 424>} ins(%a2 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%b2 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 425>} ins(%b2, %b2 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%a2 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 426>} ins(%a2 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%b2 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 427>} ins(%b2, %b2 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%a2 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 428>} ins(%a2 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%b2 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 429>} ins(%a3, %a3 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%b3 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 430>} ins(%b3 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%a3 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 431>} ins(%a3, %a3 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%b3 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 432>} ins(%b3 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%a3 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 433>} ins(%a3, %a3 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%b3 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 434>} ins(%b3 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%a3 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 435>} ins(%a3, %a3 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%b3 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID2>]
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID2>]
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 436>} ins(%a4 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%b4 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 437>} ins(%b4, %b4 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%a4 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 438>} ins(%a4 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%b4 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 439>} ins(%b4, %b4 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%a4 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 440>} ins(%a4 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%b4 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 441>} ins(%b4, %b4 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%a4 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 442>} ins(%a4 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%b4 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 443>} ins(%a0_u1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%b0_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 444>} ins(%b0_u1, %b0_u1 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%a0_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 445>} ins(%a0_u1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%b0_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 446>} ins(%b0_u1, %b0_u1 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%a0_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 447>} ins(%a0_u1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%b0_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 448>} ins(%b0_u1, %b0_u1 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%a0_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 449>} ins(%a0_u1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%b0_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 450>} ins(%a1_u1, %a1_u1 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%b1_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 451>} ins(%b1_u1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%a1_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 452>} ins(%a1_u1, %a1_u1 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%b1_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 453>} ins(%b1_u1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%a1_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 454>} ins(%a1_u1, %a1_u1 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%b1_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 455>} ins(%b1_u1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%a1_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 456>} ins(%a1_u1, %a1_u1 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%b1_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 457>} ins(%a2_u1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%b2_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 458>} ins(%b2_u1, %b2_u1 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%a2_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 459>} ins(%a2_u1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%b2_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 460>} ins(%b2_u1, %b2_u1 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%a2_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 461>} ins(%a2_u1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%b2_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 462>} ins(%b2_u1, %b2_u1 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%a2_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 463>} ins(%a2_u1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%b2_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID3>]
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID3>]
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 464>} ins(%a3_u1, %a3_u1 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%b3_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 465>} ins(%b3_u1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%a3_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 466>} ins(%a3_u1, %a3_u1 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%b3_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 467>} ins(%b3_u1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%a3_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 468>} ins(%a3_u1, %a3_u1 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%b3_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 469>} ins(%b3_u1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%a3_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 470>} ins(%a3_u1, %a3_u1 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%b3_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 471>} ins(%a4_u1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%b4_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 472>} ins(%b4_u1, %b4_u1 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%a4_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 473>} ins(%a4_u1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%b4_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 474>} ins(%b4_u1, %b4_u1 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%a4_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 475>} ins(%a4_u1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%b4_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vmul {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 476>} ins(%b4_u1, %b4_u1 : memref<1x16xf32, #hivm.address_space<ub>>, memref<1x16xf32, #hivm.address_space<ub>>) outs(%a4_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.vabs {ascend.task = #ascend.task<latency = 1, ii = 1, stage = 1, start = 477>} ins(%a4_u1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%b4_u1 : memref<1x16xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID4>]
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID4>]
      %y0 = memref.subview %y[%row, 0] [1, 16] [1, 1] : memref<4x80xf32, #hivm.address_space<gm>> to memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
      hivm.hir.store ins(%b0 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%y0 : memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>) {ascend.task = #ascend.task<latency = 181, ii = 10, stage = 1, start = 545>}
      %y1 = memref.subview %y[%row, 16] [1, 16] [1, 1] : memref<4x80xf32, #hivm.address_space<gm>> to memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID1>]
      hivm.hir.store ins(%b1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%y1 : memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>) {ascend.task = #ascend.task<latency = 181, ii = 10, stage = 1, start = 555>}
      %y2 = memref.subview %y[%row, 32] [1, 16] [1, 1] : memref<4x80xf32, #hivm.address_space<gm>> to memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID2>]
      hivm.hir.store ins(%b2 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%y2 : memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>) {ascend.task = #ascend.task<latency = 181, ii = 10, stage = 1, start = 565>}
      %y3 = memref.subview %y[%row, 48] [1, 16] [1, 1] : memref<4x80xf32, #hivm.address_space<gm>> to memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.store ins(%b3 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%y3 : memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>) {ascend.task = #ascend.task<latency = 181, ii = 10, stage = 1, start = 575>}
      %y4 = memref.subview %y[%row, 64] [1, 16] [1, 1] : memref<4x80xf32, #hivm.address_space<gm>> to memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID3>]
      hivm.hir.store ins(%b4 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%y4 : memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>) {ascend.task = #ascend.task<latency = 181, ii = 10, stage = 1, start = 585>}
      %y0_1 = memref.subview %y[%row_1, 0] [1, 16] [1, 1] : memref<4x80xf32, #hivm.address_space<gm>> to memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.store ins(%b0_u1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%y0_1 : memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>) {ascend.task = #ascend.task<latency = 181, ii = 10, stage = 1, start = 595>}
      %y1_1 = memref.subview %y[%row_1, 16] [1, 16] [1, 1] : memref<4x80xf32, #hivm.address_space<gm>> to memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.store ins(%b1_u1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%y1_1 : memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>) {ascend.task = #ascend.task<latency = 181, ii = 10, stage = 1, start = 605>}
      %y2_1 = memref.subview %y[%row_1, 32] [1, 16] [1, 1] : memref<4x80xf32, #hivm.address_space<gm>> to memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.store ins(%b2_u1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%y2_1 : memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>) {ascend.task = #ascend.task<latency = 181, ii = 10, stage = 1, start = 615>}
      %y3_1 = memref.subview %y[%row_1, 48] [1, 16] [1, 1] : memref<4x80xf32, #hivm.address_space<gm>> to memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID4>]
      hivm.hir.store ins(%b3_u1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%y3_1 : memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>) {ascend.task = #ascend.task<latency = 181, ii = 10, stage = 1, start = 625>}
      %y4_1 = memref.subview %y[%row_1, 64] [1, 16] [1, 1] : memref<4x80xf32, #hivm.address_space<gm>> to memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.store ins(%b4_u1 : memref<1x16xf32, #hivm.address_space<ub>>) outs(%y4_1 : memref<1x16xf32, strided<[80, 1], offset: ?>, #hivm.address_space<gm>>) {ascend.task = #ascend.task<latency = 181, ii = 10, stage = 1, start = 635>}
    } {ascend.loop = #ascend.loop<ii = 408, mii = 271, status = "heuristic", res_mii = {MTE2 = 208, MTE3 = 271, V = 70}, rec_mii = 201, binding = "MTE3">, ascend.num_stages = 1 : i64, ascend.drains = #ascend.drains<(MTE2, 545, 78), (MTE3, 645, 171)>, ascend.unroll = 2 : i64}
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID4>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID3>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID2>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    func.return
  }
}