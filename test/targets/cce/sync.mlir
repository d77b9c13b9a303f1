// Flags and barriers print exactly as the IR has them: static and dynamic event ids,
// pipe barriers (PIPE_ALL as asc_sync), in both spellings.
// RUN: ascend-opt %s -p 'ascend-compile{target=cce}' -t 'cce{arch=dav-3510}' | filecheck %s --check-prefix=A5
// RUN: ascend-opt %s -p 'ascend-compile{target=cce chip=ascend910b}' -t 'cce{arch=dav-c220}' | filecheck %s --check-prefix=C220
// RUN: ascend-sim %s --via cce --json | filecheck %s --check-prefix=EMU
// EMU: "deadlock": false, "unbalanced_flags": []
// EMU-SAME: "simulator_match": true
// EMU-SAME: "ok": true

func.func @versions(%x: memref<1024xf32, #hivm.address_space<gm>>, %y: memref<1024xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %c1024_i64 = arith.constant 1024 : i64
  %u = memref.alloc() : memref<2x256xf32, #hivm.address_space<ub>>
  // A5:      asc_sync_notify(PIPE_V, PIPE_MTE2, (event_t)0);
  // A5-NEXT: asc_sync_notify(PIPE_V, PIPE_MTE2, (event_t)1);
  // C220:    set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
  // C220-NEXT: set_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
  hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
  hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
  scf.for %i = %c0 to %c4 step %c1 {
    %v = arith.remui %i, %c2 : index
    %ev = arith.index_cast %v : index to i64
    %off = arith.muli %i, %c256 : index
    %xs = memref.subview %x[%off] [256] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    %ys = memref.subview %y[%off] [256] [1] : memref<1024xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    %uv = memref.subview %u[%v, 0] [1, 256] [1, 1] : memref<2x256xf32, #hivm.address_space<ub>> to memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<ub>>
    // (index -> i64 is one C type: the event id is v itself)
    // A5:      __ubuf__ float *uv = u + v * 256;
    // A5-NEXT: asc_sync_wait(PIPE_V, PIPE_MTE2, (event_t)(v));
    // C220:    wait_flag(PIPE_V, PIPE_MTE2, (event_t)(v));
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, %ev]
    hivm.hir.load ins(%xs : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%uv : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID2>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID2>]
    // A5:      vf_exp_f32(uv, uv, 256);
    // A5-NEXT: asc_sync_pipe(PIPE_V);
    // C220:    pipe_barrier(PIPE_V);
    hivm.hir.vexp ins(%uv : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<ub>>) outs(%uv : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_V>]
    hivm.hir.vabs ins(%uv : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<ub>>) outs(%uv : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.store ins(%uv : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<ub>>) outs(%ys : memref<256xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
    // A5:      asc_sync();
    // C220:    pipe_barrier(PIPE_ALL);
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE2>, %ev]
  }
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]
  hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
  return
}
