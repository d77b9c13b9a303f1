"""Static upper bounds of planned addresses: how high a function's UB buffers reach
(`ub_high_water`), from their `hivm.hir.pointer_cast` offsets bounded over the loops
around them (`upper_bound`). The dav-c220 reduction scratch is placed above it
(transforms/lower_wide_reduce.py), and the cce printer's other scratch rows too.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IntegerAttr, MemRefType
from xdsl.ir import Block, SSAValue

from ascend_mlir.analysis.latency_model import element_bytes
from ascend_mlir.dialects import hivm
from ascend_mlir.hardware import stored_bytes


def ub_high_water(fn: func.FuncOp) -> int | None:
    """The end of the highest UB buffer of `fn` (None if an address has no static bound;
    every buffer is a planned pointer_cast: targets/cce/prepared.py refuses the rest)."""
    top = 0
    for op in fn.walk():
        if isinstance(op, hivm.PointerCastOp) and hivm.scope_of(op.results[0]) == "ub":
            t = cast(MemRefType, op.results[0].type)
            size = stored_bytes("ub", t.get_shape(), element_bytes(t.get_element_type()))
            bases = [upper_bound(a) for a in op.addrs]  # a multi-buffer: every version's address
            if not bases or any(b is None for b in bases):
                return None
            top = max(top, max(cast(list[int], bases)) + size)
    return top


def upper_bound(value: SSAValue, depth: int = 0) -> int | None:
    """A static upper bound of a non-negative index/integer expression: constants, + * and
    remainders of them, casts, and loop induction variables (bounded by their loop)."""
    if depth > 32:
        return None
    owner = value.owner
    if isinstance(owner, Block):
        loop = owner.parent_op()
        if isinstance(loop, scf.ForOp) and value is owner.args[0]:
            ub = upper_bound(loop.ub, depth + 1)
            return None if ub is None else ub - 1
        return None
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    if owner.name in ("arith.remui", "arith.remsi"):  # below the divisor, whatever the dividend
        divisor = upper_bound(owner.operands[1], depth + 1)
        return None if divisor is None or divisor <= 0 else divisor - 1
    bounds = [upper_bound(v, depth + 1) for v in owner.operands]
    if any(b is None for b in bounds) or any(cast(int, b) < 0 for b in bounds):
        return None
    b = cast(list[int], bounds)
    if owner.name in ("arith.index_cast", "arith.index_castui", "arith.extui", "arith.extsi"):
        return b[0]
    if owner.name == "arith.addi":
        return b[0] + b[1]
    if owner.name == "arith.muli":
        return b[0] * b[1]
    if owner.name in ("arith.divui", "arith.divsi"):
        return b[0]
    if isinstance(owner, arith.SelectOp):
        return max(b[1], b[2])
    return None
