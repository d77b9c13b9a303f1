// RUN: ascend-opt %s -p 'ascend-compile{chip=ascend910b}' | filecheck %s --check-prefix=CHIP
// RUN: ascend-opt %s -p 'ascend-compile{sync=solver}' 2>&1 | filecheck %s --check-prefix=SOLVER
// RUN: not ascend-opt %s -p 'ascend-compile{schedule=modulo}' 2>&1 | filecheck %s --check-prefix=MODULO
// RUN: not ascend-opt %s -p 'ascend-compile{sync=fast}' 2>&1 | filecheck %s --check-prefix=BADSYNC
// RUN: not ascend-opt %s -p 'ascend-compile{chip=tpu9}' 2>&1 | filecheck %s --check-prefix=BADCHIP

// chip= sets the module's target, so bishengir-compile gets the chip we compiled for.
// CHIP: builtin.module attributes {hacc.target = #hacc.target<"Ascend910B1">}
// CHIP: hivm.hir.load

// sync=solver places flags (ascend-insert-sync): the store waits for the load.
// SOLVER: hivm.hir.load
// SOLVER-NEXT: hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
// SOLVER-NEXT: hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE3>, <EVENT_ID0>]
// SOLVER-NEXT: hivm.hir.store

// Modes that do not exist yet are refused by name, never replaced silently.
// MODULO: error: ascend-compile: schedule=modulo is not yet implemented (available: schedule=program-order)
// BADSYNC: error: ascend-compile: unknown sync=fast (expected one of: barrier-all, solver)
// BADCHIP: error: unknown chip 'tpu9'

func.func @copy(%x: memref<64xf16, #hivm.address_space<gm>>, %y: memref<64xf16, #hivm.address_space<gm>>)
    attributes {tile.kernel} {
  %u = memref.alloc() : memref<64xf16, #hivm.address_space<ub>>
  tile.copy ins(%x : memref<64xf16, #hivm.address_space<gm>>) outs(%u : memref<64xf16, #hivm.address_space<ub>>)
  tile.copy ins(%u : memref<64xf16, #hivm.address_space<ub>>) outs(%y : memref<64xf16, #hivm.address_space<gm>>)
  return
}
