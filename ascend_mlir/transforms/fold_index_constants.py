"""`ascend-fold-index-constants`: integer and index arithmetic whose operands are all
constants becomes a constant.

The scalar unit issues a core's ops in program order, one cycle for each `arith` op, and
a pipe op waits for every op before it; a constant costs nothing. The peeled first K
step (peel-mmad-init) and a pipelined loop's prologue and epilogue are copies of a loop
body with the loop variable a constant, so the buffer version and event id arithmetic
they copy (`((iv - lb) / step) mod V`, its address) is constant too: in a cube kernel
with one K step (gemm_bf16 at K = TK = 32) four such ops stood before the first load and
the kernel ran 4 cycles slower than the same kernel in program order (one version, no
arithmetic). Folded, the values are the same and cost nothing. Runs after the sync
passes (which read the arithmetic's structure, `iv mod V`, only where it is not
constant) and before ascend-verify-sync, which checks the result.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from ascend_mlir.analysis.latency_model import constant_int


def _unsigned(fn: Callable[[int, int], int]) -> Callable[[int, int], int | None]:
    """`fn` on non-negative operands and a positive divisor (None otherwise: left as is)."""
    return lambda a, b: fn(a, b) if a >= 0 and b > 0 else None


_FOLDS: dict[type[Operation], Callable[[int, int], int | None]] = {
    arith.AddiOp: operator.add,
    arith.SubiOp: operator.sub,
    arith.MuliOp: operator.mul,
    arith.DivUIOp: _unsigned(operator.floordiv),
    arith.RemUIOp: _unsigned(operator.mod),
}
# the values these kernels compute (addresses, ids, indices) are far from either bound;
# a fold that would leave the signed 64-bit range is not made
_LIMIT = 1 << 62


def _folded(op: Operation) -> int | None:
    """The constant `op` computes, or None when it is not a fold of constants."""
    if isinstance(op, arith.IndexCastOp):
        return constant_int(op.input)
    fold = _FOLDS.get(type(op))
    if fold is None:
        return None
    lhs, rhs = constant_int(op.operands[0]), constant_int(op.operands[1])
    if lhs is None or rhs is None:
        return None
    value = fold(lhs, rhs)
    return value if value is not None and -_LIMIT < value < _LIMIT else None


class _FoldConstantArith(RewritePattern):
    def __init__(self) -> None:
        # the constants this pass made: one a later fold leaves unused goes (a chain of
        # folds leaves only its last value)
        self.made: set[Operation] = set()

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if len(op.results) != 1 or not isinstance(op.results[0].type, IndexType | IntegerType):
            return
        value = _folded(op)
        if value is None:
            return
        result_type = op.results[0].type
        constant = arith.ConstantOp(IntegerAttr(value, result_type))
        suffix = f"_i{result_type.width.data}" if isinstance(result_type, IntegerType) else ""
        constant.result.name_hint = f"c{value}{suffix}" if value >= 0 else f"c_neg{-value}{suffix}"
        inputs = [operand.owner for operand in op.operands]
        rewriter.replace(op, constant)
        self.made.add(constant)
        for owner in inputs:
            if owner in self.made and not owner.results[0].uses:  # type: ignore[union-attr]
                self.made.discard(owner)  # type: ignore[arg-type]
                rewriter.erase(owner)  # type: ignore[arg-type]


@dataclass(frozen=True)
class FoldIndexConstantsPass(ModulePass):
    """Fold integer and index arithmetic of constants to constants (module doc)."""

    name = "ascend-fold-index-constants"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(_FoldConstantArith(), apply_recursively=True).rewrite_module(op)
