"""The upstream memref dialect as MLIR spells it: xDSL 0.75's ops, with `memref.copy` in
MLIR's custom syntax.

xDSL 0.75 parses and prints `memref.copy` only in the generic form, so a file that
writes `memref.copy %a, %b : memref<..> to memref<..>` (as mlir-opt 22 and bishengir-opt
print it, and as the peer's HIVM tests write it) was refused at the op. `register_dialects`
registers this dialect under the name `memref` in place of xDSL's; every other op is
xDSL's own class, so `isinstance` tests against `xdsl.dialects.memref` keep working.
The xdsl-opt plug-in (`universe.py`) keeps xDSL's memref: a universe may not define a
dialect xDSL already defines.
"""

from __future__ import annotations

from xdsl.dialects import memref as upstream
from xdsl.dialects.builtin import MemRefType, UnrankedMemRefType
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    base,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    traits_def,
)
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException

_ANY_MEMREF = base(MemRefType) | base(UnrankedMemRefType)


def _shapes_compatible(a: Attribute, b: Attribute) -> bool:
    """MLIR's SameOperandsShape: an unranked memref fits any shape, ranked ones need the
    same rank and equal sizes wherever both are static."""
    if not isinstance(a, MemRefType) or not isinstance(b, MemRefType):
        return True
    sa, sb = a.get_shape(), b.get_shape()
    return len(sa) == len(sb) and all(x == y or x < 0 or y < 0 for x, y in zip(sa, sb))


def _element_type(t: Attribute) -> Attribute:
    assert isinstance(t, MemRefType | UnrankedMemRefType)
    return t.element_type


@irdl_op_definition
class CopyOp(IRDLOperation):
    """`memref.copy %source, %target : memref<..> to memref<..>`: copies every element;
    the two memrefs may differ in layout and memory space, not in shape or element type
    (MLIR's SameOperandsShape and SameOperandsElementType, in MLIR's words)."""

    name = "memref.copy"
    source = operand_def(_ANY_MEMREF)
    destination = operand_def(_ANY_MEMREF)

    traits = traits_def(MemoryWriteEffect(), MemoryReadEffect())

    assembly_format = "$source `,` $destination attr-dict `:` type($source) `to` type($destination)"

    def __init__(self, source: SSAValue | Operation, destination: SSAValue | Operation):
        super().__init__(operands=[source, destination])

    def verify_(self) -> None:
        source, destination = self.source.type, self.destination.type
        if not _shapes_compatible(source, destination):
            raise VerifyException("requires the same shape for all operands")
        if _element_type(source) != _element_type(destination):
            raise VerifyException("requires the same element type for all operands")


MemRef = Dialect(
    "memref",
    [CopyOp if op is upstream.CopyOp else op for op in upstream.MemRef.operations],
    list(upstream.MemRef.attributes),
)
