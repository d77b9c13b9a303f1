// pipe_barrier[<PIPE_S>] stalls the core's issue until every pipe drained, like PIPE_ALL
// (PipeBarrierOp.stalls_issue): the checker, the simulator and the CCE printer (asc_sync())
// agree. Here it is the only sync between MTE2 -> V -> V -> MTE3; taken as a barrier on S
// alone (as ascend-verify-sync did before) it orders none of them and vabs races the load.
// RUN: ascend-opt %s -p ascend-verify-sync | filecheck %s
// RUN: ascend-sim %s --json | filecheck %s --check-prefix=SIM
// RUN: ascend-opt %s -p 'ascend-compile{target=cce}' -t cce | filecheck %s --check-prefix=CCE
// RUN: ascend-sim %s --via cce --json | filecheck %s --check-prefix=EMU
// CHECK: hivm.hir.vabs
// SIM: "races": []
// SIM-SAME: "ok": true
// CCE-COUNT-4: asc_sync();
// CCE-NOT: asc_sync_pipe
// EMU: "races": []
// EMU-SAME: "simulator_match": true
// EMU-SAME: "ok": true

builtin.module {
  func.func @chain(%x: memref<64xf32, #hivm.address_space<gm>>, %z: memref<64xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %u = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    %v = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    %w = memref.alloc() : memref<64xf32, #hivm.address_space<ub>>
    hivm.hir.load ins(%x : memref<64xf32, #hivm.address_space<gm>>) outs(%u : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_S>]
    hivm.hir.vabs ins(%u : memref<64xf32, #hivm.address_space<ub>>) outs(%v : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_S>]
    hivm.hir.vmul ins(%v, %u : memref<64xf32, #hivm.address_space<ub>>, memref<64xf32, #hivm.address_space<ub>>) outs(%w : memref<64xf32, #hivm.address_space<ub>>)
    hivm.hir.pipe_barrier[<PIPE_S>]
    hivm.hir.store ins(%w : memref<64xf32, #hivm.address_space<ub>>) outs(%z : memref<64xf32, #hivm.address_space<gm>>)
    hivm.hir.pipe_barrier[<PIPE_S>]
    func.return
  }
}
