"""`ascend-sink-index-math`: in the body of a loop with runtime bounds, each pure index
computation moves down to right before its first user (issue 17 item 2).

The scalar unit issues a core's ops in program order, one cycle for each `arith` op, and
a pipe op waits for every op before it. insert-sync and multi-buffering compute a
rotating event id or a buffer version (`((iv - lb) / step) mod V`) at the top of the loop
body, so in vecadd_dyn's remainder loop 8 such cycles came before the first load, on the
critical path of a one-tile run. Moved down to their first user (a wait before the vector
op), they are issued while the load runs. The ops are pure: moving one later in its block,
still before every use, changes no value. Loops with constant bounds are left alone
(their code is as before, byte for byte).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ascend_mlir.analysis.latency_model import constant_int

# pure index and integer arithmetic (no constants: they cost nothing and stay put);
# ascend-cse-index-math merges the same ops
INDEX_MATH = (
    arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.DivUIOp, arith.DivSIOp, arith.RemUIOp,
    arith.RemSIOp, arith.IndexCastOp, arith.MinSIOp, arith.MaxSIOp, arith.MinUIOp, arith.MaxUIOp,
)


def _first_user(op: Operation, block: Block) -> Operation | None:
    """The first op of `block` that uses a result of `op` (itself or inside it)."""
    users: set[Operation] = set()
    for result in op.results:
        for use in result.uses:
            user = block.find_ancestor_op_in_block(use.operation)
            if user is None:
                return None  # used outside the block: leave it
            users.add(user)
    current = op.next_op
    while current is not None:
        if current in users:
            return current
        current = current.next_op
    return None


def sink_block(block: Block) -> int:
    """Move every sinkable op of `block` right before its first user; how many moved."""
    moved = 0
    for op in reversed(list(block.ops)):
        if not isinstance(op, INDEX_MATH):
            continue
        user = _first_user(op, block)
        if user is None or user is op.next_op:
            continue
        op.detach()
        Rewriter.insert_op(op, InsertPoint.before(user))
        moved += 1
    return moved


def runtime_loops(module: ModuleOp) -> list[scf.ForOp]:
    return [op for op in module.walk() if isinstance(op, scf.ForOp)
            and (constant_int(op.lb) is None or constant_int(op.ub) is None)]


@dataclass(frozen=True)
class SinkIndexMathPass(ModulePass):
    """Sink pure index arithmetic to its first user in runtime-bounded loops (module doc)."""

    name = "ascend-sink-index-math"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for loop in runtime_loops(op):
            sink_block(loop.body.block)
