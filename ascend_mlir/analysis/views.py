"""Memref views: ops whose result denotes (part of) the buffer of their first operand.

Passes and printers that reason about which buffer an access touches (sync insertion,
the MIX split, dead-view removal) walk these back to the allocation or argument.
"""

from __future__ import annotations

from xdsl.dialects import memref
from xdsl.ir import SSAValue

VIEW_OPS = (
    memref.SubviewOp,
    memref.CastOp,
    memref.ReinterpretCastOp,
    memref.CollapseShapeOp,
    memref.ExpandShapeOp,
    memref.MemorySpaceCastOp,
)


def view_root(value: SSAValue) -> SSAValue:
    """The value `value` is a view of, through any chain of views (itself if none)."""
    while isinstance(value.owner, VIEW_OPS):
        value = value.owner.operands[0]
    return value
