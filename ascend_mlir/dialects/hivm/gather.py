"""Indexed global-memory access of bishengir-opt 1.2.0 (the tensor form only: the
indices are always a tensor, so bishengir lowers these ops before its memory planning
and the simulator never meets them in a planned kernel):

    %r = hivm.hir.gather_load ins(%base : memref<?xf32>, %idx : tensor<16xi32>, %burst : i64
                                  [, %mask : tensor<16xi1>, %other : tensor<16xf32>])
                              outs(%init : tensor<16xf32>) {cache = .., evict = .., isVolatile = ..} -> tensor<16xf32>
    hivm.hir.scatter_store ins(%idx : tensor<16xi32>, %data : tensor<16xf32>, %burst : i64 [, %mask : tensor<16xi1>])
                           outs(%base : memref<?xf32>) {cache = .., evict = ..}

gather_load: `dst[i] = mask[i] ? base[idx[i]] : other[i]`; scatter_store: `base[idx[i]] = data[i]`
where `mask[i]`; `burst_len` says how many consecutive elements one index of the innermost
axis stands for. The mask and other operands are one `SameVariadicOperandSize` group in
bishengir's build: a gather_load takes both or neither."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import BoolAttr, IntegerType, MemRefType, TensorType
from xdsl.ir import SSAValue
from xdsl.irdl import (
    SameVariadicOperandSize,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ascend_mlir.dialects.hivm.attrs import CacheModifierAttr, EvictionPolicyAttr
from ascend_mlir.dialects.hivm.interface import (
    MEMREF_OR_TENSOR,
    DestinationStyleResults,
    element_type_of,
    shape_of,
)
from ascend_mlir.dialects.hivm.syntax import HivmOp, parse_result_types, print_result_types


def _parse_typed_operands(parser: Parser) -> list[SSAValue]:
    """`(%a : T, %b : U, ...)`: each operand with its own type."""

    def one() -> SSAValue:
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        return parser.resolve_operand(operand, parser.parse_type())

    return parser.parse_comma_separated_list(Parser.Delimiter.PAREN, one)


def _print_typed_operands(printer: Printer, values: Sequence[SSAValue]) -> None:
    printer.print_string("(")
    printer.print_list(values, lambda v: (printer.print_operand(v), printer.print_string(" : "),
                                          printer.print_attribute(v.type)))
    printer.print_string(")")


def _is_index_tensor(value: SSAValue) -> bool:
    t = value.type
    return isinstance(t, TensorType) and element_type_of(value) in (IntegerType(32), IntegerType(64))


class _IndexedOp(HivmOp):
    result = opt_result_def(TensorType)

    cache = opt_prop_def(CacheModifierAttr)
    evict = opt_prop_def(EvictionPolicyAttr)

    irdl_options = (SameVariadicOperandSize(),)
    traits = traits_def(DestinationStyleResults())
    # the operand names of `ins(...)` in order (the optional ones last) and of `outs(...)`
    INS: ClassVar[tuple[str, ...]] = ()
    OUT: ClassVar[str] = ""
    # how many `ins` operands the one variadic group allows (its optional operands all or none)
    INS_COUNTS: ClassVar[tuple[int, ...]] = ()

    def pipes(self) -> tuple[str, ...]:
        return ("V",)

    @classmethod
    def parse(cls, parser: Parser):
        pos = parser.pos
        parser.parse_keyword("ins")
        ins = _parse_typed_operands(parser)
        parser.parse_keyword("outs")
        outs = _parse_typed_operands(parser)
        props, attrs = cls._parse_attr_dict(parser)
        if len(ins) not in cls.INS_COUNTS or len(outs) != 1:
            optional = " and ".join(cls.INS[3:])
            parser.raise_error(f"expected ins({', '.join(cls.INS)}) and outs({cls.OUT}), {optional} given together "
                               "or left out (one SameVariadicOperandSize group)", pos, parser.pos)
        operands: dict[str, SSAValue | Sequence[SSAValue] | None] = dict(zip(cls.INS, ins))
        operands[cls.OUT] = outs[0]
        return cls._make(operands, props, attrs, parse_result_types(parser))

    def print(self, printer: Printer) -> None:
        printer.print_string(" ins")
        _print_typed_operands(printer, [v for name in self.INS if (v := getattr(self, name)) is not None])
        printer.print_string(" outs")
        _print_typed_operands(printer, (getattr(self, self.OUT),))
        self._print_attr_dict(printer)
        print_result_types(printer, self.results)

    def _verify_indices(self, indices: SSAValue, burst_len: SSAValue, mask: SSAValue | None,
                        shaped: tuple[str, SSAValue], mask_like: str) -> None:
        """bishengir's operand constraints and checks, in its words: `shaped` (name,
        value) has the indices' shape, the mask that of `mask_like`."""
        if not _is_index_tensor(indices):
            raise VerifyException(f"indices must be a ranked tensor of i32 or i64, got {indices.type}")
        if burst_len.type not in (IntegerType(32), IntegerType(64)):
            raise VerifyException(f"burst_len must be i32 or i64, got {burst_len.type}")
        if shape_of(indices) != shape_of(shaped[1]):
            raise VerifyException(f"failed to verify that all of {{indices, {shaped[0]}}} have same shape")
        if mask is None:
            return
        if element_type_of(mask) != IntegerType(1):
            raise VerifyException(f"mask must be a ranked tensor of i1, got {mask.type}")
        if shape_of(mask) != shape_of(indices):
            raise VerifyException(f"mask of hivm::{type(self).__name__} must have the same shape and rank as {mask_like}")


@irdl_op_definition
class GatherLoadOp(_IndexedOp):
    name = "hivm.hir.gather_load"

    base = operand_def(MemRefType)
    indices = operand_def(TensorType)
    burst_len = operand_def(IntegerType)
    mask = opt_operand_def(TensorType)
    other = opt_operand_def(TensorType)
    dst = operand_def(MEMREF_OR_TENSOR)

    isVolatile = opt_prop_def(BoolAttr)

    INS: ClassVar[tuple[str, ...]] = ("base", "indices", "burst_len", "mask", "other")
    OUT: ClassVar[str] = "dst"
    INS_COUNTS: ClassVar[tuple[int, ...]] = (3, 5)

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        return (self.base,)

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return (self.dst,)

    def verify_(self) -> None:
        if element_type_of(self.base) != element_type_of(self.dst):
            raise VerifyException("failed to verify that all of {base, dst} have same element type")
        self._verify_indices(self.indices, self.burst_len, self.mask, ("dst", self.dst), "indices")
        if self.other is not None:
            if shape_of(self.other) != shape_of(self.indices):
                raise VerifyException("other of hivm::GatherLoadOp must have the same shape and rank as indices")
            if element_type_of(self.other) != element_type_of(self.base):
                raise VerifyException("other of hivm::GatherLoadOp must have the same element type as base")


@irdl_op_definition
class ScatterStoreOp(_IndexedOp):
    name = "hivm.hir.scatter_store"

    indices = operand_def(TensorType)
    data = operand_def(TensorType)
    burst_len = operand_def(IntegerType)
    mask = opt_operand_def(TensorType)
    base = operand_def(MEMREF_OR_TENSOR)

    INS: ClassVar[tuple[str, ...]] = ("indices", "data", "burst_len", "mask")
    OUT: ClassVar[str] = "base"
    INS_COUNTS: ClassVar[tuple[int, ...]] = (3, 4)

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return (self.base,)

    def verify_(self) -> None:
        if element_type_of(self.base) != element_type_of(self.data):
            raise VerifyException("failed to verify that all of {base, data} have same element type")
        self._verify_indices(self.indices, self.burst_len, self.mask, ("data", self.data), "data")


GATHER_OPS = (GatherLoadOp, ScatterStoreOp)
