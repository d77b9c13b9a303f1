"""Vector ops that move elements without computing (PIPE_V), bishengir-opt 1.2.0 syntax:
vtranspose (swap two axes; on rank 4 also two swaps), vflip (reverse one axis) and
vconcat (join its sources along one axis).

    hivm.hir.vtranspose ins(%s : t) outs(%d : t) [temp_buffer(%b : t)] permutation = [1, 0]
    hivm.hir.vflip ins(%s : t) outs(%d : t) flip_axis = 1
    hivm.hir.vconcat dim(1) ins(%a, %b : t, t) outs(%d : t)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import I64, BoolAttr, DenseArrayBase, IntegerAttr
from xdsl.ir import SSAValue
from xdsl.irdl import irdl_op_definition, operand_def, opt_operand_def, prop_def, var_operand_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ascend_mlir.dialects.hivm.interface import (
    MEMREF_OR_TENSOR,
    array_values,
    element_type_of,
    shape_of,
    verify_same_element_type,
)
from ascend_mlir.dialects.hivm.syntax import (
    Clause,
    parse_result_types,
    parse_values_with_types,
    print_clauses,
    print_result_types,
    print_values_with_types,
)
from ascend_mlir.dialects.hivm.vector import _VectorOp


class _MoveOp(_VectorOp):
    # each op defines src and dst first itself (the definition order is the operand order)

    CLAUSES: ClassVar[tuple[Clause, ...]] = ()

    def _operand(self, name: str) -> SSAValue:
        return getattr(self, name)

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        return (self._operand("src"),)

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return (self._operand("dst"),)

    @classmethod
    def parse(cls, parser: Parser):
        return cls._parse_src_dst_clauses(parser, cls.CLAUSES)

    def print(self, printer: Printer) -> None:
        self._print_src_dst(printer, self._operand("src"), self._operand("dst"))
        # a bool clause at its default (disable_align = false) is elided, as bishengir does
        shown = [c for c in self.CLAUSES if not (c.kind == "bool" and self._format_prop(c.target) is None)]
        print_clauses(printer, self, shown)
        print_result_types(printer, self.results)


@irdl_op_definition
class VTransposeOp(_MoveOp):
    """`dst = transpose(src, permutation)`: one swap of two axes (rank 4: also two swaps)."""

    name = "hivm.hir.vtranspose"

    src = operand_def(MEMREF_OR_TENSOR)
    dst = operand_def(MEMREF_OR_TENSOR)
    temp_buffer = opt_operand_def(MEMREF_OR_TENSOR)
    permutation = prop_def(DenseArrayBase)
    disable_align = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))

    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("permutation", "disable_align")
    CLAUSES: ClassVar[tuple[Clause, ...]] = (
        Clause("temp_buffer", "paren"), Clause("permutation", "ints"), Clause("disable_align", "bool"),
    )

    def verify_(self) -> None:
        # bishengir's checks and words
        self._verify_ub_operands()
        perm = array_values(self.permutation)
        if not perm:
            raise VerifyException("Permutation array should not be empty.")
        rank = len(shape_of(self.src) or ())
        if len(perm) != rank:
            raise VerifyException("Permutation size should be equal to src rank")
        for index in perm:
            if not 0 <= index < rank:
                raise VerifyException(f"have invalid index '{index}' inside permutation array")
        moved = sum(1 for axis, index in enumerate(perm) if axis != index)
        if moved != 2 and not (rank == 4 and _swaps(perm) == 2):
            raise VerifyException("Vtranspose only support two axes transpose")
        if element_type_of(self.src) != element_type_of(self.dst):
            raise VerifyException("ElementType of src and dst are not the same")
        if len(shape_of(self.dst) or ()) != rank:
            raise VerifyException("Rank of src and dst are not the same")


def _swaps(perm: Sequence[int]) -> int:
    """The number of swaps a permutation is made of (its cycles' lengths less one)."""
    seen = [False] * len(perm)
    swaps = 0
    for start in range(len(perm)):
        length, index = 0, start
        while not seen[index]:
            seen[index] = True
            index = perm[index]
            length += 1
        swaps += max(length - 1, 0)
    return swaps


@irdl_op_definition
class VFlipOp(_MoveOp):
    """`dst = src` reversed along `flip_axis`."""

    name = "hivm.hir.vflip"

    src = operand_def(MEMREF_OR_TENSOR)
    dst = operand_def(MEMREF_OR_TENSOR)
    flip_axis = prop_def(IntegerAttr[I64])

    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("flip_axis",)

    @classmethod
    def parse(cls, parser: Parser):
        props, attrs, operands = cls._parse_src_dst(parser)
        parser.parse_keyword("flip_axis")
        parser.parse_punctuation("=")
        props["flip_axis"] = IntegerAttr(parser.parse_integer(allow_boolean=False), 64)
        return cls._make(operands, props, attrs, parse_result_types(parser))

    def print(self, printer: Printer) -> None:
        self._print_src_dst(printer, self.src, self.dst)
        printer.print_string(f" flip_axis = {self.flip_axis.value.data}")
        print_result_types(printer, self.results)

    def verify_(self) -> None:
        self._verify_ub_operands()
        verify_same_element_type(self, self.src, self.dst, "source and destination")
        rank = len(shape_of(self.src) or ())
        if not 0 <= self.flip_axis.value.data < rank:
            raise VerifyException(f"flip_axis {self.flip_axis.value.data} is out of range for rank {rank}")


@irdl_op_definition
class VConcatOp(_VectorOp):
    """`dst = concatenate(src..., axis=dim)`. bishengir-opt 1.2.0 checks only that the
    operands share one element type (SameOperandsElementType); sizes that do not add up
    are refused by the simulator at the op, as bishengir leaves them to its lowering."""

    name = "hivm.hir.vconcat"

    dim = prop_def(IntegerAttr[I64])
    src = var_operand_def(MEMREF_OR_TENSOR)
    dst = operand_def(MEMREF_OR_TENSOR)

    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("dim",)

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        return tuple(self.src)

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return (self.dst,)

    @classmethod
    def parse(cls, parser: Parser):
        parser.parse_keyword("dim")
        parser.parse_punctuation("(")
        dim = IntegerAttr(parser.parse_integer(allow_boolean=False), 64)
        parser.parse_punctuation(")")
        props, attrs = cls._parse_attr_dict(parser)
        props["dim"] = dim
        parser.parse_keyword("ins")
        src = parse_values_with_types(parser)
        parser.parse_keyword("outs")
        (dst,) = parse_values_with_types(parser)
        return cls._make({"src": src, "dst": dst}, props, attrs, parse_result_types(parser))

    def print(self, printer: Printer) -> None:
        printer.print_string(f" dim({self.dim.value.data})")
        self._print_attr_dict(printer)
        printer.print_string(" ins")
        print_values_with_types(printer, self.src)
        printer.print_string(" outs")
        print_values_with_types(printer, (self.dst,))
        print_result_types(printer, self.results)

    def verify_(self) -> None:
        self._verify_ub_operands()
        for value in (*self.src[1:], self.dst):
            if element_type_of(value) != element_type_of(self.src[0]):
                raise VerifyException("requires the same element type for all operands")


PERMUTE_OPS = (VTransposeOp, VFlipOp, VConcatOp)
