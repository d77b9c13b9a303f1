"""`ascend-cse-index-math`: pure index and integer arithmetic computed twice is computed
once (common subexpression elimination of the scalar unit's arithmetic only).

The scalar unit issues a core's ops in program order, one cycle for each `arith` op, and
a pipe op waits for every op before it. multi-buffer and insert-sync write each buffer's
version and each flag's rotating event id as its own chain (`((iv - lb) / step) mod V`,
cast, scaled, offset): a loop of six chains on the 910B (unseen seed 1048, 35 ops) issued
216 such ops an iteration, twenty `iv - lb` and forty `mod 2` among them. With one cycle
of issue for each pipe op too, the loop took 283 cycles an iteration to issue, and ran at
that (276) where its schedule and the code's replay said 260. Computed once, the values
are the same.

Only arithmetic and constants are merged (xDSL's CSE driver, asked about nothing else): a
buffer's view or pointer_cast keeps its own value, which the sync passes and the printers
read as that buffer's. A value of an enclosing region serves an equal expression inside a
loop or branch (computed once before it). Runs after the sync passes, which write the
ids, and before ascend-sink-index-math, which then moves each shared value to its first
user. The ops are ascend-sink-index-math's (`INDEX_MATH`), and constants.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.transforms.common_subexpression_elimination import CSEDriver

from ascend_mlir.transforms.sink_index_math import INDEX_MATH

# the ops merged: the arithmetic, and the constants it reads
_MERGED = (*INDEX_MATH, arith.ConstantOp)


class _IndexMathDriver(CSEDriver):
    """xDSL's CSE driver (its scopes: a value of an enclosing region serves a nested one,
    never the other way), offered the index arithmetic and constants only. Merged as
    pure: xDSL does not take `remui`/`divui` for side-effect free (a zero divisor), but a
    second division of the same operands where the first has run gives the same value.
    The passes write their own `arith.constant 2` each, and two `mod 2` of one value are
    one expression only once their 2s are one value. An unused one goes (it would cost
    its cycle for nothing)."""

    def _simplify_operation(self, op: Operation) -> None:
        if not isinstance(op, _MERGED):
            return
        if not any(result.uses for result in op.results):
            self._mark_erasure(op)
        elif (existing := self._known_ops.get(op)) is not None:
            self._replace_and_delete(op, existing)
        else:
            self._known_ops[op] = op


@dataclass(frozen=True)
class CseIndexMathPass(ModulePass):
    """Compute each pure index or integer expression once (module doc)."""

    name = "ascend-cse-index-math"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _IndexMathDriver().simplify(op)
