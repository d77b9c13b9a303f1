"""pointer_cast (a buffer at a planned on-chip address) and the block-id queries of the scalar unit."""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    IndexType,
    MemRefType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.traits import Pure
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ascend_mlir import hardware
from ascend_mlir.dialects.hivm.interface import (
    scope_of,
    scope_text,
)
from ascend_mlir.dialects.hivm.syntax import (
    HivmOp,
)

# ---------------------------------------------------------------------------
# Memory and block ids
# ---------------------------------------------------------------------------


@irdl_op_definition
class PointerCastOp(IRDLOperation):
    """`%m = hivm.hir.pointer_cast(%addr0[, %addr1...]) [%sizes] : memref<..., #hivm.address_space<ub>>`.

    A buffer at a planned on-chip byte offset; several addresses make a multi-buffer.
    """

    name = "hivm.hir.pointer_cast"

    addrs = var_operand_def(I64)
    dynamicSizes = var_operand_def(IndexType)
    result = result_def(MemRefType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(self, addrs: Sequence[SSAValue | Operation], result_type: Attribute, dynamic_sizes: Sequence[SSAValue | Operation] = ()):
        super().__init__(operands=[list(addrs), list(dynamic_sizes)], result_types=[result_type])

    def verify_(self) -> None:
        if not self.addrs:
            raise VerifyException("needs at least one address")
        if scope_of(self.result) not in hardware.ON_CHIP_SCOPES:
            raise VerifyException(
                f"result must be in an on-chip scope ({', '.join(hardware.ON_CHIP_SCOPES)}), got {scope_text(self.result)}"
            )
        memref_type = cast(MemRefType[Attribute], self.result.type)
        dynamic_dims = sum(1 for d in memref_type.get_shape() if d == DYNAMIC_INDEX)
        if dynamic_dims != len(self.dynamicSizes):
            raise VerifyException(
                f"{dynamic_dims} dynamic dimension(s) need as many sizes, got {len(self.dynamicSizes)}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> PointerCastOp:
        addrs = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        sizes: list[UnresolvedOperand] = []
        # `[]` (no dynamic sizes) is accepted as bishengir does, and printed as it does: not at all
        if parser.parse_optional_punctuation("[") is not None and parser.parse_optional_punctuation("]") is None:
            sizes = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_unresolved_operand)
            parser.parse_punctuation("]")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        op = cls(
            [parser.resolve_operand(a, i64) for a in addrs],
            result_type,
            [parser.resolve_operand(s, IndexType()) for s in sizes],
        )
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(self.addrs, printer.print_operand)
        printer.print_string(")")
        if self.dynamicSizes:
            printer.print_string(" [")
            printer.print_list(self.dynamicSizes, printer.print_operand)
            printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


class _BlockQueryOp(HivmOp, ABC):
    """`%v = hivm.hir.get_block_idx -> i64`, a scalar-unit query.

    Pure: it reads a value fixed for the kernel's whole run and touches no memory, so
    xDSL's dce may drop an unused one (split-mix-kernel relies on it) and cse merge two.
    """

    result = result_def(I64)
    traits = traits_def(Pure())

    def __init__(self):
        super().__init__(result_types=[i64])

    def pipes(self) -> tuple[str, ...]:
        return ("S",)

    assembly_format = "attr-dict `->` type($result)"


@irdl_op_definition
class GetBlockIdxOp(_BlockQueryOp):
    name = "hivm.hir.get_block_idx"


@irdl_op_definition
class GetBlockNumOp(_BlockQueryOp):
    name = "hivm.hir.get_block_num"


@irdl_op_definition
class GetSubBlockIdxOp(_BlockQueryOp):
    name = "hivm.hir.get_sub_block_idx"

