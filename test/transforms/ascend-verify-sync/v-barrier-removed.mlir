// RUN: not ascend-opt %s -p "ascend-verify-sync{chip=ascend910b}" 2>&1 | filecheck %s
// RUN: ascend-opt %s -p "ascend-verify-sync{chip=ascend950}" | filecheck %s --check-prefix=A5
// Mutant of ascend-insert-sync's output for the 910B: the pipe_barrier[<PIPE_V>] before vmul removed: the 910B's V pipe does not order dependent vector ops (same-pipe rule); the 950's does, so the same code is correct there.
// A5: hivm.hir.vmul
// CHECK: v-barrier-removed.mlir:18:5: error: 'hivm.hir.vmul' op ascend-verify-sync: hivm.hir.vmul (V) may touch bytes that hivm.hir.vabs at {{.*}}v-barrier-removed.mlir:16:5 (V) wrote, and nothing orders them

builtin.module {
  func.func @chain(%x: memref<64xf32, #hivm.address_space<gm>>, %z: memref<64xf32, #hivm.address_space<gm>>) {
    %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    %v = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    %w = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    %t = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.vabs ins(%u : memref<64xf32, #hivm.address_space<ub>>) outs(%v : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vexp ins(%u : memref<64xf32, #hivm.address_space<ub>>) outs(%t : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.vmul ins(%v, %t : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%w : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.store ins(%w : memref<64xf32, #hivm.address_space<ub>>) outs(%z : memref<64xf32, #hivm.address_space<gm>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    func.return
  }
}

