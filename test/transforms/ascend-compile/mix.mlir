// RUN: ascend-opt %s -p 'ascend-compile{schedule=program-order sync=barrier-all}' | filecheck %s
// RUN: ascend-sim %s --json | filecheck %s --check-prefix=SIM

// A MIX kernel (cube matmul, vector epilogue): the accumulator reaches the vector core
// through a cross-core hand-off (flag 0, FIX -> V), and since the next K-tile loads
// follow the vector side in the next iteration, the baton goes back (flag 1).

// ascend-compile ends with split-mix-kernel: each core's part keeps its half of every
// hand-off.
// CHECK:       hivm.module_core_type = #hivm.module_core_type<MIX>
// CHECK-LABEL: func.func @exp_of_gemm_mix_aic(
// CHECK:       scf.for
// CHECK:         hivm.hir.nd2nz
// CHECK:         hivm.hir.mmadL1
// CHECK:         hivm.hir.fixpipe
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_V>] flag = 0
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:    hivm.hir.sync_block_wait[<CUBE>, <PIPE_MTE3>, <PIPE_MTE2>] flag = 1
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @exp_of_gemm_mix_aiv(
// CHECK:       scf.for
// CHECK-NOT:     hivm.hir.mmadL1
// CHECK:         hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_V>] flag = 0
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:    hivm.hir.vexp
// CHECK:         hivm.hir.store
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:    hivm.hir.sync_block_set[<VECTOR>, <PIPE_MTE3>, <PIPE_MTE2>] flag = 1
// CHECK-NEXT:    hivm.hir.pipe_barrier[<PIPE_ALL>]
// CHECK-NEXT:  }

// SIM: "races": []
// SIM-SAME: "deadlock": false
// SIM-SAME: "unbalanced_flags": []
// SIM-SAME: "reference_match": true

// exp(A_t @ B) for two row tiles t of A, one K step each.
func.func @exp_of_gemm(%a: memref<64x32xf16, #hivm.address_space<gm>>, %b: memref<32x32xf16, #hivm.address_space<gm>>, %c: memref<64x32xf32, #hivm.address_space<gm>>)
    attributes {tile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %true = arith.constant true
  %la = memref.alloc() : memref<32x32xf16, #hivm.address_space<cbuf>>
  %lb = memref.alloc() : memref<32x32xf16, #hivm.address_space<cbuf>>
  %acc = memref.alloc() : memref<32x32xf32, #hivm.address_space<cc>>
  %u = memref.alloc() : memref<32x32xf32, #hivm.address_space<ub>>
  tile.copy ins(%b : memref<32x32xf16, #hivm.address_space<gm>>) outs(%lb : memref<32x32xf16, #hivm.address_space<cbuf>>)
  scf.for %t = %c0 to %c2 step %c1 {
    %r = arith.muli %t, %c32 : index
    %as = memref.subview %a[%r, 0] [32, 32] [1, 1] : memref<64x32xf16, #hivm.address_space<gm>> to memref<32x32xf16, strided<[32, 1], offset: ?>, #hivm.address_space<gm>>
    %cs = memref.subview %c[%r, 0] [32, 32] [1, 1] : memref<64x32xf32, #hivm.address_space<gm>> to memref<32x32xf32, strided<[32, 1], offset: ?>, #hivm.address_space<gm>>
    tile.copy ins(%as : memref<32x32xf16, strided<[32, 1], offset: ?>, #hivm.address_space<gm>>) outs(%la : memref<32x32xf16, #hivm.address_space<cbuf>>)
    tile.matmul ins(%la, %lb : memref<32x32xf16, #hivm.address_space<cbuf>>, memref<32x32xf16, #hivm.address_space<cbuf>>) outs(%acc : memref<32x32xf32, #hivm.address_space<cc>>) init(%true : i1)
    tile.copy ins(%acc : memref<32x32xf32, #hivm.address_space<cc>>) outs(%u : memref<32x32xf32, #hivm.address_space<ub>>)
    tile.exp ins(%u : memref<32x32xf32, #hivm.address_space<ub>>) outs(%u : memref<32x32xf32, #hivm.address_space<ub>>)
    tile.copy ins(%u : memref<32x32xf32, #hivm.address_space<ub>>) outs(%cs : memref<32x32xf32, strided<[32, 1], offset: ?>, #hivm.address_space<gm>>)
  } {tile.num_stages = 1 : i64}
  return
}
