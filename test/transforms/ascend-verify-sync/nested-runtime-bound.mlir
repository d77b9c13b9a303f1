// RUN: not ascend-opt %s -p ascend-verify-sync 2>&1 | filecheck %s
// RUN: sed -e 's/%23 = arith.muli %22, %c0_i64 : i64/%23 = arith.muli %22, %c1024_i64 : i64/' %s | ascend-opt -p ascend-verify-sync | filecheck %s --check-prefix=ACCEPT
// ascend-insert-sync's output for test/transforms/ascend-compile/nested-runtime-loops.mlir
// on the 950: the inner runtime loop's remainder, from %unrolled_ub (made in the outer
// loop's body) to %cols, cycles its buffer %ux_v through two versions at (j - %unrolled_ub)
// % 2 * 1024. Mutant: both versions at byte 0 (the multiplier 1024 made 0). Naming the
// bound by the iterations of the loops around its definition keeps the versions of the
// real code apart (ACCEPT) and still sees the collapsed ones meet.
// CHECK: nested-runtime-bound.mlir:{{[0-9]+}}:9: error: {{.*}}hivm.hir.load (MTE2) may touch bytes that hivm.hir.load at {{.*}} (MTE2) wrote, and nothing orders them (iterations [0, 0] and [0, 1])
// ACCEPT: func.func @nested_dyn
builtin.module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  func.func @nested_dyn(%x: memref<?x?xf32, #hivm.address_space<gm>>, %b: memref<?x256xf32, #hivm.address_space<gm>>, %z: memref<?x256xf32, #hivm.address_space<gm>>, %rows: index, %cols: index) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>, ascend.grid = 1 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c6 = arith.constant 6 : index
    %c256 = arith.constant 256 : index
    %c2048_i64 = arith.constant 2048 : i64
    %c3072_i64 = arith.constant 3072 : i64
    %c4096_i64 = arith.constant 4096 : i64
    %c5120_i64 = arith.constant 5120 : i64
    %c6144_i64 = arith.constant 6144 : i64
    %c2 = arith.constant 2 : index
    %c1024_i64 = arith.constant 1024 : i64
    %c7168_i64 = arith.constant 7168 : i64
    %0 = arith.constant 1 : i64
    %1 = arith.constant 2 : i64
    %c0_i64 = arith.constant 0 : i64
    %ux_u0 = hivm.hir.pointer_cast(%c2048_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x256xf32, #hivm.address_space<ub>>
    %ux_u1 = hivm.hir.pointer_cast(%c3072_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x256xf32, #hivm.address_space<ub>>
    %ue = hivm.hir.pointer_cast(%c4096_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x256xf32, #hivm.address_space<ub>>
    %ue_u0 = hivm.hir.pointer_cast(%c5120_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x256xf32, #hivm.address_space<ub>>
    %ue_u1 = hivm.hir.pointer_cast(%c6144_i64) {ascend.buffer = #ascend.buffer<versions = 1>} : memref<1x256xf32, #hivm.address_space<ub>>
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID3>]
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID4>]
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID1>]
    scf.for %r = %c0 to %rows step %c1 {
      %ver = arith.remui %r, %c2 : index
      %2 = arith.index_cast %ver : index to i64
      %3 = arith.muli %2, %c1024_i64 : i64
      %4 = arith.addi %3, %c7168_i64 : i64
      %acc_v = hivm.hir.pointer_cast(%4) : memref<1x256xf32, #hivm.address_space<ub>>
      %bs = memref.subview %b[%r, 0] [1, 256] [1, 1] : memref<?x256xf32, #hivm.address_space<gm>> to memref<1x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      %5 = arith.remui %r, %c2 : index
      %6 = arith.index_cast %5 : index to i64
      hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, %6]
      hivm.hir.load ins(%bs : memref<1x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%acc_v : memref<1x256xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 101, ii = 13, stage = 0, start = 0>}
      %7 = arith.remui %r, %c2 : index
      %8 = arith.index_cast %7 : index to i64
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, %8]
      %9 = arith.subi %cols, %c0 : index
      %10 = arith.maxsi %9, %c0 : index
      %11 = arith.divui %10, %c2 : index
      %12 = arith.muli %11, %c2 : index
      %unrolled_ub = arith.addi %c0, %12 : index
      %13 = arith.subi %unrolled_ub, %c0 : index
      %14 = arith.cmpi sgt, %13, %c0 : index
      hivm.hir.pipe_barrier[<PIPE_MTE2>]
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, %8]
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID3>]
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID4>]
      scf.if %14 {
        %xs = memref.subview %x[%r, %c0] [1, 256] [1, 1] : memref<?x?xf32, #hivm.address_space<gm>> to memref<1x256xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
        hivm.hir.load ins(%xs : memref<1x256xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>) outs(%ux_u0 : memref<1x256xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 101, ii = 13, stage = 0, start = 0>}
        %xs_1 = memref.subview %x[%r, %c256] [1, 256] [1, 1] : memref<?x?xf32, #hivm.address_space<gm>> to memref<1x256xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
        hivm.hir.load ins(%xs_1 : memref<1x256xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>) outs(%ux_u1 : memref<1x256xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 101, ii = 13, stage = 0, start = 13>}
        hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID6>]
        hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID6>]
        hivm.hir.vexp {ascend.task = #ascend.task<latency = 32, ii = 32, stage = 0, start = 114>} ins(%ux_u0 : memref<1x256xf32, #hivm.address_space<ub>>) outs(%ue_u0 : memref<1x256xf32, #hivm.address_space<ub>>)
        hivm.hir.vexp {ascend.task = #ascend.task<latency = 32, ii = 32, stage = 0, start = 146>} ins(%ux_u1 : memref<1x256xf32, #hivm.address_space<ub>>) outs(%ue_u1 : memref<1x256xf32, #hivm.address_space<ub>>)
        hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
        hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID5>]
        scf.for %j = %c2 to %unrolled_ub step %c2 {
          %off = arith.muli %j, %c256 : index
          %xs_2 = memref.subview %x[%r, %off] [1, 256] [1, 1] : memref<?x?xf32, #hivm.address_space<gm>> to memref<1x256xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
          hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
          hivm.hir.load ins(%xs_2 : memref<1x256xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>) outs(%ux_u0 : memref<1x256xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 101, ii = 13, stage = 0, start = 0>}
          %15 = arith.subi %j, %c2 : index
          hivm.hir.vadd {ascend.task = #ascend.task<latency = 8, ii = 8, stage = 1, start = 178>} ins(%acc_v, %ue_u0 : memref<1x256xf32, #hivm.address_space<ub>>, memref<1x256xf32, #hivm.address_space<ub>>) outs(%acc_v : memref<1x256xf32, #hivm.address_space<ub>>)
          %j_1 = arith.addi %j, %c1 : index
          %off_1 = arith.muli %j_1, %c256 : index
          %xs_3 = memref.subview %x[%r, %off_1] [1, 256] [1, 1] : memref<?x?xf32, #hivm.address_space<gm>> to memref<1x256xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
          hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID5>]
          hivm.hir.load ins(%xs_3 : memref<1x256xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>) outs(%ux_u1 : memref<1x256xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 101, ii = 13, stage = 0, start = 13>}
          hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID7>]
          hivm.hir.vadd {ascend.task = #ascend.task<latency = 8, ii = 8, stage = 1, start = 186>} ins(%acc_v, %ue_u1 : memref<1x256xf32, #hivm.address_space<ub>>, memref<1x256xf32, #hivm.address_space<ub>>) outs(%acc_v : memref<1x256xf32, #hivm.address_space<ub>>)
          hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID7>]
          hivm.hir.vexp {ascend.task = #ascend.task<latency = 32, ii = 32, stage = 0, start = 114>} ins(%ux_u0 : memref<1x256xf32, #hivm.address_space<ub>>) outs(%ue_u0 : memref<1x256xf32, #hivm.address_space<ub>>)
          hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
          hivm.hir.vexp {ascend.task = #ascend.task<latency = 32, ii = 32, stage = 0, start = 146>} ins(%ux_u1 : memref<1x256xf32, #hivm.address_space<ub>>) outs(%ue_u1 : memref<1x256xf32, #hivm.address_space<ub>>)
          hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID5>]
        } {ascend.loop = #ascend.loop<ii = 165, mii = 133, status = "optimal", res_mii = {MTE2 = 114, V = 80}, rec_mii = 133, binding = "recurrence">, ascend.num_stages = 1 : i64, ascend.drains = #ascend.drains<(MTE2, 26, 88)>, ascend.unroll = 2 : i64, ascend.pipelined}
        hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID5>]
        hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
        %16 = arith.addi %13, %c1 : index
        %17 = arith.divsi %16, %c2 : index
        %18 = arith.subi %17, %c1 : index
        %19 = arith.muli %18, %c2 : index
        %20 = arith.addi %c0, %19 : index
        hivm.hir.vadd {ascend.task = #ascend.task<latency = 8, ii = 8, stage = 1, start = 178>} ins(%acc_v, %ue_u0 : memref<1x256xf32, #hivm.address_space<ub>>, memref<1x256xf32, #hivm.address_space<ub>>) outs(%acc_v : memref<1x256xf32, #hivm.address_space<ub>>)
        hivm.hir.vadd {ascend.task = #ascend.task<latency = 8, ii = 8, stage = 1, start = 186>} ins(%acc_v, %ue_u1 : memref<1x256xf32, #hivm.address_space<ub>>, memref<1x256xf32, #hivm.address_space<ub>>) outs(%acc_v : memref<1x256xf32, #hivm.address_space<ub>>)
      } else {
        hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID5>]
        hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID6>]
        scf.for %j_2 = %c0 to %unrolled_ub step %c2 {
          %off_2 = arith.muli %j_2, %c256 : index
          %xs_4 = memref.subview %x[%r, %off_2] [1, 256] [1, 1] : memref<?x?xf32, #hivm.address_space<gm>> to memref<1x256xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
          hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID5>]
          hivm.hir.load ins(%xs_4 : memref<1x256xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>) outs(%ux_u0 : memref<1x256xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 101, ii = 13, stage = 0, start = 0>}
          %j_3 = arith.addi %j_2, %c1 : index
          %off_3 = arith.muli %j_3, %c256 : index
          %xs_5 = memref.subview %x[%r, %off_3] [1, 256] [1, 1] : memref<?x?xf32, #hivm.address_space<gm>> to memref<1x256xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
          hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID6>]
          hivm.hir.load ins(%xs_5 : memref<1x256xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>) outs(%ux_u1 : memref<1x256xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 101, ii = 13, stage = 0, start = 13>}
          hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID6>]
          hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID6>]
          hivm.hir.vexp {ascend.task = #ascend.task<latency = 32, ii = 32, stage = 0, start = 114>} ins(%ux_u0 : memref<1x256xf32, #hivm.address_space<ub>>) outs(%ue_u0 : memref<1x256xf32, #hivm.address_space<ub>>)
          hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID5>]
          hivm.hir.vexp {ascend.task = #ascend.task<latency = 32, ii = 32, stage = 0, start = 146>} ins(%ux_u1 : memref<1x256xf32, #hivm.address_space<ub>>) outs(%ue_u1 : memref<1x256xf32, #hivm.address_space<ub>>)
          hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID6>]
          hivm.hir.vadd {ascend.task = #ascend.task<latency = 8, ii = 8, stage = 1, start = 178>} ins(%acc_v, %ue_u0 : memref<1x256xf32, #hivm.address_space<ub>>, memref<1x256xf32, #hivm.address_space<ub>>) outs(%acc_v : memref<1x256xf32, #hivm.address_space<ub>>)
          hivm.hir.vadd {ascend.task = #ascend.task<latency = 8, ii = 8, stage = 1, start = 186>} ins(%acc_v, %ue_u1 : memref<1x256xf32, #hivm.address_space<ub>>, memref<1x256xf32, #hivm.address_space<ub>>) outs(%acc_v : memref<1x256xf32, #hivm.address_space<ub>>)
        } {ascend.loop = #ascend.loop<ii = 165, mii = 133, status = "optimal", res_mii = {MTE2 = 114, V = 80}, rec_mii = 133, binding = "recurrence">, ascend.num_stages = 1 : i64, ascend.drains = #ascend.drains<(MTE2, 26, 88)>, ascend.unroll = 2 : i64}
        hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID6>]
        hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID5>]
      }
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID4>]
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID3>]
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID4>]
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID2>]
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID5>]
      scf.for %j_4 = %unrolled_ub to %cols step %c1 {
        %off_4 = arith.muli %j_4, %c256 : index
        %xs_6 = memref.subview %x[%r, %off_4] [1, 256] [1, 1] : memref<?x?xf32, #hivm.address_space<gm>> to memref<1x256xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>
        %21 = arith.subi %j_4, %unrolled_ub : index
        %ver_1 = arith.remui %21, %c2 : index
        %22 = arith.index_cast %ver_1 : index to i64
        %23 = arith.muli %22, %c0_i64 : i64
        %24 = arith.addi %23, %c0_i64 : i64
        %ux_v = hivm.hir.pointer_cast(%24) : memref<1x256xf32, #hivm.address_space<ub>>
        %25 = arith.subi %j_4, %unrolled_ub : index
        %26 = arith.remui %25, %c2 : index
        %27 = arith.index_cast %26 : index to i64
        %28 = arith.addi %27, %0 : i64
        hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, %28]
        hivm.hir.load ins(%xs_6 : memref<1x256xf32, strided<[?, 1], offset: ?>, #hivm.address_space<gm>>) outs(%ux_v : memref<1x256xf32, #hivm.address_space<ub>>) {ascend.task = #ascend.task<latency = 101, ii = 13, stage = 0, start = 0>}
        %29 = arith.subi %j_4, %unrolled_ub : index
        %30 = arith.remui %29, %c2 : index
        %31 = arith.index_cast %30 : index to i64
        %32 = arith.addi %31, %1 : i64
        hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, %32]
        hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, %32]
        hivm.hir.vexp {ascend.task = #ascend.task<latency = 32, ii = 32, stage = 1, start = 101>} ins(%ux_v : memref<1x256xf32, #hivm.address_space<ub>>) outs(%ue : memref<1x256xf32, #hivm.address_space<ub>>)
        hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, %28]
        hivm.hir.vadd {ascend.task = #ascend.task<latency = 8, ii = 8, stage = 1, start = 133>} ins(%acc_v, %ue : memref<1x256xf32, #hivm.address_space<ub>>, memref<1x256xf32, #hivm.address_space<ub>>) outs(%acc_v : memref<1x256xf32, #hivm.address_space<ub>>)
      } {ascend.loop = #ascend.loop<ii = 101, mii = 101, status = "optimal", res_mii = {MTE2 = 101, V = 40}, rec_mii = 67, binding = "MTE2">, ascend.num_stages = 2 : i64, ascend.drains = #ascend.drains<(MTE2, 13, 88)>}
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID5>]
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID2>]
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
      %33 = arith.remui %r, %c2 : index
      %34 = arith.index_cast %33 : index to i64
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, %34]
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID4>]
      %zs = memref.subview %z[%r, 0] [1, 256] [1, 1] : memref<?x256xf32, #hivm.address_space<gm>> to memref<1x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, %34]
      hivm.hir.store ins(%acc_v : memref<1x256xf32, #hivm.address_space<ub>>) outs(%zs : memref<1x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) {ascend.task = #ascend.task<latency = 189, ii = 10, stage = 0, start = 319>}
      hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, %6]
    } {ascend.num_stages = 2 : i64, ascend.loop = #ascend.loop<ii = 367, mii = 367, status = "optimal", res_mii = {MTE2 = 367, MTE3 = 189, V = 266}, rec_mii = 196, binding = "MTE2">, ascend.task = #ascend.task<latency = 508, ii = 367, stage = 0, start = 0>, ascend.drains = #ascend.drains<(MTE2, 279, 88), (MTE3, 0, 179)>}
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID1>]
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID4>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID3>]
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    func.return
  }
}

