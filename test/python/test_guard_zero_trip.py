"""ascend-guard-zero-trip-loops inside ascend-compile (issue 17 item 2): a guard whose
skipped sync also ordered something other than the guarded loop is refused by
verify-sync, and ascend-compile keeps the loop unguarded, with a remark."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import scf

from ascend_mlir.transforms.ascend_compile import AscendCompilePass
from ascend_mlir.transforms.guard_zero_trip import guard_module

from test_reference import parse

# the load before the first loop is ordered before the second loop's vadd only by the
# MTE2 -> V flag set right before the first loop and waited right after it: guarded with
# the first loop, it is skipped when n = 0 while the second loop runs m times
KERNEL = """
func.func @k(%x: memref<?xf32, #hivm.address_space<gm>>, %n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a0 = arith.constant 0 : i64
  %a1 = arith.constant 4096 : i64
  %ux = hivm.hir.pointer_cast(%a0) : memref<256xf32, #hivm.address_space<ub>>
  %uz = hivm.hir.pointer_cast(%a1) : memref<256xf32, #hivm.address_space<ub>>
  %xs = memref.subview %x[0] [256] [1] : memref<?xf32, #hivm.address_space<gm>> to memref<256xf32, strided<[1]>, #hivm.address_space<gm>>
  hivm.hir.load ins(%xs : memref<256xf32, strided<[1]>, #hivm.address_space<gm>>) outs(%ux : memref<256xf32, #hivm.address_space<ub>>)
  hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  scf.for %i = %c0 to %n step %c1 {
    hivm.hir.pipe_barrier[<PIPE_V>]
    hivm.hir.vadd ins(%uz, %uz : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%uz : memref<256xf32, #hivm.address_space<ub>>)
  }
  hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  scf.for %j = %c0 to %m step %c1 {
    hivm.hir.pipe_barrier[<PIPE_V>]
    hivm.hir.vadd ins(%ux, %ux : memref<256xf32, #hivm.address_space<ub>>, memref<256xf32, #hivm.address_space<ub>>) outs(%uz : memref<256xf32, #hivm.address_space<ub>>)
  }
  hivm.hir.pipe_barrier[<PIPE_ALL>]
  return
}
"""


def _guards(module) -> int:
    return sum(isinstance(op, scf.IfOp) for op in module.walk())


def test_the_guard_is_a_candidate_here():
    module = parse(KERNEL)
    assert guard_module(module) == 1 and _guards(module) == 1


def test_a_guard_verify_sync_refuses_is_taken_back_with_a_remark(capsys):
    module = parse(KERNEL)
    AscendCompilePass()._guard_and_verify(Context(), module)  # pyright: ignore[reportPrivateUsage]
    assert _guards(module) == 0
    assert "left unguarded (verify-sync refused the guard)" in capsys.readouterr().err
