// Planned buffers: `hivm.hir.pointer_cast` prints its offset into the scope's arena, also
// when the offset is computed from the loop (a version-indexed buffer).
// RUN: ascend-opt %s -p 'ascend-compile{target=cce}' -t cce | filecheck %s
// RUN: ascend-sim %s --via cce --json | filecheck %s --check-prefix=EMU
// EMU: "deadlock": false, "unbalanced_flags": []
// EMU-SAME: "simulator_match": true
// EMU-SAME: "ok": true

func.func @planned(%x: memref<4x64xf32, #hivm.address_space<gm>>, %y: memref<4x64xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c512_i64 = arith.constant 512 : i64
  %c256_i64 = arith.constant 256 : i64
  // CHECK:      __ubuf__ uint8_t *ub_buf = (__ubuf__ uint8_t *)0;
  %c768_i64 = arith.constant 768 : i64
  // CHECK:      __ubuf__ float *out = (__ubuf__ float *)(ub_buf + 512);
  %out = hivm.hir.pointer_cast(%c512_i64) : memref<64xf32, #hivm.address_space<ub>>
  // CHECK-NEXT: __ubuf__ float *scratch = (__ubuf__ float *)(ub_buf + 768);
  %scratch = hivm.hir.pointer_cast(%c768_i64) : memref<64xf32, #hivm.address_space<ub>>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = arith.remui %i, %c2 : index
    %v64 = arith.index_cast %v : index to i64
    %addr = arith.muli %v64, %c256_i64 : i64
    // CHECK:    const int64_t addr = v * 256;
    // CHECK-NEXT: __ubuf__ float *in = (__ubuf__ float *)(ub_buf + addr);
    %in = hivm.hir.pointer_cast(%addr) : memref<64xf32, #hivm.address_space<ub>>
    %xs = memref.subview %x[%i, 0] [1, 64] [1, 1] : memref<4x64xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    %ys = memref.subview %y[%i, 0] [1, 64] [1, 1] : memref<4x64xf32, #hivm.address_space<gm>> to memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>
    // CHECK:    __gm__ float *xs = x + i * 64;
    hivm.hir.load ins(%xs : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%in : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.vexp ins(%in : memref<64xf32, #hivm.address_space<ub>>) outs(%scratch : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_V>]
    hivm.hir.vadd ins(%scratch, %in : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%out : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    hivm.hir.store ins(%out : memref<64xf32, #hivm.address_space<ub>>) outs(%ys : memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
  }
  return
}
