// RUN: ascend-opt %s -p 'ascend-compile{chip=ascend910b}' | filecheck %s --check-prefix=CHIP
// RUN: ascend-opt %s -p 'ascend-compile{sync=solver}' 2>&1 | filecheck %s --check-prefix=SOLVER
// RUN: ascend-opt %s -p 'ascend-compile' 2>&1 | filecheck %s --check-prefix=SOLVER
// RUN: not ascend-opt %s -p 'ascend-compile{schedule=fast}' 2>&1 | filecheck %s --check-prefix=BADSCHEDULE
// RUN: not ascend-opt %s -p 'ascend-compile{sync=fast}' 2>&1 | filecheck %s --check-prefix=BADSYNC
// RUN: not ascend-opt %s -p 'ascend-compile{chip=tpu9}' 2>&1 | filecheck %s --check-prefix=BADCHIP

// chip= sets the module's target, so bishengir-compile gets the chip we compiled for.
// CHIP: builtin.module attributes {hacc.target = #hacc.target<"Ascend910B1">}
// CHIP: hivm.hir.load

// sync=solver (the default) is ascend-insert-sync: the store waits for the load. The copy
// runs one op at a time, where a pipe_barrier[<PIPE_ALL>] (one cycle) is cheaper than a
// set_flag / wait_flag pair (two): insert-sync replays both and marks the function
// ascend.barrier_sync (sync=barrier-all writes the same code without the mark).
// SOLVER: func.func @copy
// SOLVER-SAME: ascend.barrier_sync
// SOLVER-NOT: pipe_barrier
// SOLVER: hivm.hir.load
// SOLVER-NEXT: hivm.hir.pipe_barrier[<PIPE_ALL>]
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
