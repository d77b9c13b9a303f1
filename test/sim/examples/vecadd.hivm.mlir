// Hand-synced hivm form of examples/vecadd.mlir (the oracle's calibration): z = x + y,
// 8 blocks of 4096 elements, 8 tiles of 512 per block, double-buffered by hand. The tile
// loop is unrolled by two; tile 2j uses buffer set 0 (EVENT_ID0), tile 2j+1 set 1
// (EVENT_ID1), so the loads of one set overlap the add and store of the other.
//
// Per set s:  MTE2 -> V   (x, y loaded; the add may read them)
//             V -> MTE3   (z computed; the store may read it)
//             V -> MTE2   (the add has read x, y; the next loads may overwrite them)
//             MTE3 -> V   (the store has read z; the next add may overwrite it)
// The last two are loop-carried: set once before the loop (primed) and waited once after
// it (drained), so every flag is balanced.
module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  func.func @vecadd(%x: memref<32768xf32, #hivm.address_space<gm>>, %y: memref<32768xf32, #hivm.address_space<gm>>, %z: memref<32768xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>, ascend.grid = 8 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c512 = arith.constant 512 : index
    %c1024 = arith.constant 1024 : index
    %c4096 = arith.constant 4096 : index
    %block_i64 = hivm.hir.get_block_idx -> i64
    %block = arith.index_cast %block_i64 : i64 to index
    %base = arith.muli %block, %c4096 : index
    %ux0 = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
    %uy0 = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
    %uz0 = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
    %ux1 = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
    %uy1 = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
    %uz1 = memref.alloc() : memref<512xf32, #hivm.address_space<ub>>
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
    scf.for %j = %c0 to %c4 step %c1 {
      %t0 = arith.muli %j, %c1024 : index
      %t1 = arith.addi %t0, %c512 : index
      // tile 2j in buffer set 0 (EVENT_ID0)
      %off0 = arith.addi %base, %t0 : index
      %xs0 = memref.subview %x[%off0] [512] [1] : memref<32768xf32, #hivm.address_space<gm>> to memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %ys0 = memref.subview %y[%off0] [512] [1] : memref<32768xf32, #hivm.address_space<gm>> to memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %zs0 = memref.subview %z[%off0] [512] [1] : memref<32768xf32, #hivm.address_space<gm>> to memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.load ins(%xs0 : memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux0 : memref<512xf32, #hivm.address_space<ub>>)
      hivm.hir.load ins(%ys0 : memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%uy0 : memref<512xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.vadd ins(%ux0, %uy0 : memref<512xf32, #hivm.address_space<ub>>, memref<512xf32, #hivm.address_space<ub>>) outs(%uz0 : memref<512xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
      hivm.hir.store ins(%uz0 : memref<512xf32, #hivm.address_space<ub>>) outs(%zs0 : memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
      hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
      // tile 2j+1 in buffer set 1 (EVENT_ID1)
      %off1 = arith.addi %base, %t1 : index
      %xs1 = memref.subview %x[%off1] [512] [1] : memref<32768xf32, #hivm.address_space<gm>> to memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %ys1 = memref.subview %y[%off1] [512] [1] : memref<32768xf32, #hivm.address_space<gm>> to memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      %zs1 = memref.subview %z[%off1] [512] [1] : memref<32768xf32, #hivm.address_space<gm>> to memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
      hivm.hir.load ins(%xs1 : memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%ux1 : memref<512xf32, #hivm.address_space<ub>>)
      hivm.hir.load ins(%ys1 : memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%uy1 : memref<512xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID1>]
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID1>]
      hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
      hivm.hir.vadd ins(%ux1, %uy1 : memref<512xf32, #hivm.address_space<ub>>, memref<512xf32, #hivm.address_space<ub>>) outs(%uz1 : memref<512xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID1>]
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID1>]
      hivm.hir.store ins(%uz1 : memref<512xf32, #hivm.address_space<ub>>) outs(%zs1 : memref<512xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
      hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
    }
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
    return
  }
}
