"""Which loops and branches of the functions of one kernel take the same trip count or
branch in every run of it.

A split MIX kernel's halves (`<name>_mix_aic` / `<name>_mix_aiv`) are one program over
the same kernel arguments and the same block index: a loop of the cube and a loop of
the vectors whose bounds are the same computation over those arguments, nested in loops
and branches that correspond in the same way, run the same number of times in the same
iteration of their parents; two `scf.if` with the same condition so placed take the same
branch. `run_key` gives such a loop or `scf.if` a key that only structurally equal ones
share, and None where it cannot tell (a value read from memory, a loop-carried value,
an op it does not know to be a pure function of its operands): those are never paired.

Only what the hardware gives every core of a block alike is a shared leaf: the kernel's
arguments (by position) and `get_block_idx` / `get_block_num`. `get_sub_block_idx` differs
between the two vector cores and never pairs with the cube. The `ascend.task` annotation
(a scheduling fact, different in each half) is not part of a key.
"""

from __future__ import annotations

from collections.abc import Hashable

from xdsl.dialects import func, scf
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

__all__ = ["run_key"]

# ops whose result is a pure function of their operands and attributes
_PURE_PREFIXES = ("arith.", "index.")
_SHARED_LEAVES = ("hivm.hir.get_block_idx", "hivm.hir.get_block_num")
_NOT_KEYED = ("ascend.task",)


class _Keys:
    def __init__(self) -> None:
        self.values: dict[SSAValue, Hashable | None] = {}
        self.ops: dict[Operation, Hashable | None] = {}

    def value(self, value: SSAValue) -> Hashable | None:
        if value not in self.values:
            self.values[value] = self._value(value)
        return self.values[value]

    def _value(self, value: SSAValue) -> Hashable | None:
        if isinstance(value, BlockArgument):
            block = value.owner
            parent = block.parent_op() if isinstance(block, Block) else None
            if isinstance(parent, func.FuncOp):
                return ("arg", value.index)
            if isinstance(parent, scf.ForOp) and value.index == 0:
                loop = self.op(parent)
                return None if loop is None else ("iv", loop)
            return None
        if not isinstance(value, OpResult):
            return None
        op = value.op
        pure = op.name.startswith(_PURE_PREFIXES) and not op.regions
        if not pure and op.name not in _SHARED_LEAVES:
            return None
        operands = tuple(self.value(v) for v in op.operands)
        if any(k is None for k in operands):
            return None
        attrs = {**op.properties, **op.attributes}
        described = tuple(sorted((k, str(v)) for k, v in attrs.items() if k not in _NOT_KEYED))
        return (op.name, value.index, described, operands, tuple(str(r.type) for r in op.results))

    def op(self, op: Operation) -> Hashable | None:
        if op not in self.ops:
            self.ops[op] = self._op(op)
        return self.ops[op]

    def _op(self, op: Operation) -> Hashable | None:
        place = self.place(op)
        if place is None:
            return None
        if isinstance(op, scf.ForOp):
            bounds = tuple(self.value(v) for v in (op.lb, op.ub, op.step))
            return None if any(b is None for b in bounds) else ("for", bounds, place)
        if isinstance(op, scf.IfOp):
            cond = self.value(op.cond)
            return None if cond is None else ("if", cond, place)
        return None

    def place(self, op: Operation) -> Hashable | None:
        """The loops and branches around `op`, outermost last (keys of each)."""
        chain: list[Hashable] = []
        child: Operation = op
        parent = op.parent_op()
        while parent is not None and not isinstance(parent, func.FuncOp):
            if isinstance(parent, scf.ForOp | scf.IfOp):
                key = self.op(parent)
                if key is None:
                    return None
                region = child.parent_region()
                index = parent.regions.index(region) if region is not None else -1
                chain.append((key, index))
            else:
                chain.append(parent.name)
            child, parent = parent, parent.parent_op()
        return tuple(chain)


def run_key(ops: list[Operation]) -> dict[Operation, Hashable]:
    """A key per loop / `scf.if` of `ops`: equal keys take the same trip count / branch in
    every run; an op with no shareable key gets itself (it pairs with nothing)."""
    keys = _Keys()
    out: dict[Operation, Hashable] = {}
    for op in ops:
        key = keys.op(op)
        out[op] = op if key is None else key
    return out
