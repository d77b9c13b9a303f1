// Hand-synced hivm form of examples/softmax.mlir (the oracle's calibration): row
// softmax of 256x256 fp32, 4 blocks of 64 rows, 4 tiles of 16 rows per block, one buffer
// each. Each vector op depends on the previous one: a pipe_barrier[<PIPE_V>] separates
// them (what bishengir inserts; consecutive vector instructions may overlap on the real
// V pipe). Across pipes, only the DMA boundaries need flags:
//   MTE2 -> V   the tile is loaded;            V -> MTE3  the result is computed;
//   V -> MTE2   vsub has read %ux: the next load may overwrite it (set right after the
//               last reader, not at the end of the body, so the load starts early);
//   MTE3 -> V   the store has read %uy: the next vdiv may overwrite it.
// The last two are loop-carried: primed before the loop and drained after it.
module attributes {hacc.target = #hacc.target<"Ascend950PR_9599">} {
  func.func @softmax(%x: memref<256x256xf32, #hivm.address_space<gm>>, %y: memref<256x256xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>, ascend.grid = 4 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %block_i64 = hivm.hir.get_block_idx -> i64
    %block = arith.index_cast %block_i64 : i64 to index
    %base = arith.muli %block, %c64 : index
    %ux = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %row_max = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
    %row_sum = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
    %wide = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %ue = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    %uy = memref.alloc() : memref<16x256xf32, #hivm.address_space<ub>>
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    scf.for %i = %c0 to %c4 step %c1 {
      %rows = arith.muli %i, %c16 : index
      %row0 = arith.addi %base, %rows : index
      %xs = memref.subview %x[%row0, 0] [16, 256] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      %ys = memref.subview %y[%row0, 0] [16, 256] [1, 1] : memref<256x256xf32, #hivm.address_space<gm>> to memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.load ins(%xs : memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>) outs(%ux : memref<16x256xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.vreduce <max> ins(%ux : memref<16x256xf32, #hivm.address_space<ub>>) outs(%row_max : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vbrc ins(%row_max : memref<16x1xf32, #hivm.address_space<ub>>) outs(%wide : memref<16x256xf32, #hivm.address_space<ub>>) broadcast_dims = [1]
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vsub ins(%ux, %wide : memref<16x256xf32, #hivm.address_space<ub>>, memref<16x256xf32, #hivm.address_space<ub>>) outs(%ue : memref<16x256xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vexp ins(%ue : memref<16x256xf32, #hivm.address_space<ub>>) outs(%ue : memref<16x256xf32, #hivm.address_space<ub>>)
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vreduce <sum> ins(%ue : memref<16x256xf32, #hivm.address_space<ub>>) outs(%row_sum : memref<16x1xf32, #hivm.address_space<ub>>) reduce_dims = [1]
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vbrc ins(%row_sum : memref<16x1xf32, #hivm.address_space<ub>>) outs(%wide : memref<16x256xf32, #hivm.address_space<ub>>) broadcast_dims = [1]
      hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
      hivm.hir.pipe_barrier[<PIPE_V>]
      hivm.hir.vdiv ins(%ue, %wide : memref<16x256xf32, #hivm.address_space<ub>>, memref<16x256xf32, #hivm.address_space<ub>>) outs(%uy : memref<16x256xf32, #hivm.address_space<ub>>)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
      hivm.hir.store ins(%uy : memref<16x256xf32, #hivm.address_space<ub>>) outs(%ys : memref<16x256xf32, strided<[256, 1], offset: ?>, #hivm.address_space<gm>>)
      hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    }
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]
    return
  }
}
