// RUN: ascend-opt %s -p 'ascend-compile{chip=ascend910b}' | filecheck %s --check-prefix=CHIP
// RUN: ascend-opt %s -p 'ascend-compile{sync=solver}' 2>&1 | filecheck %s --check-prefix=SOLVER
// RUN: ascend-opt %s -p 'ascend-compile' 2>&1 | filecheck %s --check-prefix=SOLVER
// RUN: not ascend-opt %s -p 'ascend-compile{schedule=fast}' 2>&1 | filecheck %s --check-prefix=BADSCHEDULE
// RUN: not ascend-opt %s -p 'ascend-compile{sync=fast}' 2>&1 | filecheck %s --check-prefix=BADSYNC
// RUN: not ascend-opt %s -p 'ascend-compile{chip=tpu9}' 2>&1 | filecheck %s --check-prefix=BADCHIP

// chip= sets the module's target, so bishengir-compile gets the chip we compiled for.
// CHIP: builtin.module attributes {hacc.target = #hacc.target<"Ascend910B1">}
// CHIP: hivm.hir.load

// sync=solver (the default) places flags (ascend-insert-sync): the store waits for the load.
// SOLVER: hivm.hir.load
// SOLVER-NEXT: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
// SOLVER-NEXT: hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
// SOLVER-NEXT: hivm.hir.store

// Unknown modes are refused by name, never replaced silently.
// BADSCHEDULE: error: ascend-compile: unknown schedule=fast (expected one of: modulo, program-order)
// BADSYNC: error: ascend-compile: unknown sync=fast (expected one of: barrier-all, solver)
// BADCHIP: error: unknown chip 'tpu9'

func.func @copy(%x: memref<64xf16, #hivm.address_space<gm>>, %y: memref<64xf16, #hivm.address_space<gm>>)
    attributes {tile.kernel} {
  %u = memref.alloc() : memref<64xf16, #hivm.address_space<ub>>
  tile.copy ins(%x : memref<64xf16, #hivm.address_space<gm>>) outs(%u : memref<64xf16, #hivm.address_space<ub>>)
  tile.copy ins(%u : memref<64xf16, #hivm.address_space<ub>>) outs(%y : memref<64xf16, #hivm.address_space<gm>>)
  return
}
