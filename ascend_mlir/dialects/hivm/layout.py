"""`hivm.hir.convert_layout`: the same data seen in another layout (ND <-> fractal nZ/zN,
the dot operand layouts), a view: no pipe, no copy (bishengir-opt 1.2.0 syntax).

    %v = hivm.hir.convert_layout %m output_shape [8, %n, 16, 16] {dstLayout = #hivm.data_layout<nZ>,
             srcLayout = #hivm.data_layout<ND>} : (memref<128x128xf16>) -> memref<8x8x16x16xf16>
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, IndexType, MemRefType, TensorType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ascend_mlir.dialects.hivm.attrs import DataLayoutAttr
from ascend_mlir.dialects.hivm.interface import MEMREF_OR_TENSOR, array_values, element_type_of, i64_array
from ascend_mlir.dialects.hivm.syntax import print_mlir_attr_dict


def parse_dynamic_index_list(parser: Parser) -> tuple[list[SSAValue], DenseArrayBase]:
    """MLIR's `custom<DynamicIndexList>`: `[4, %n, 16]` (index SSA values where dynamic)."""
    values: list[SSAValue] = []
    static: list[int] = []

    def entry() -> None:
        operand: UnresolvedOperand | None = parser.parse_optional_unresolved_operand()
        if operand is None:
            static.append(parser.parse_integer(allow_boolean=False))
        else:
            values.append(parser.resolve_operand(operand, IndexType()))
            static.append(DYNAMIC_INDEX)

    parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, entry)
    return values, i64_array(static)


def print_dynamic_index_list(printer: Printer, values: Sequence[SSAValue], static: DenseArrayBase) -> None:
    dynamic = iter(values)
    printer.print_string("[")
    printer.print_list(
        array_values(static),
        lambda v: printer.print_operand(next(dynamic)) if v == DYNAMIC_INDEX else printer.print_string(str(v)),
    )
    printer.print_string("]")


@irdl_op_definition
class ConvertLayoutOp(IRDLOperation):
    name = "hivm.hir.convert_layout"

    source = operand_def(MEMREF_OR_TENSOR)
    output_shape = var_operand_def(IndexType)
    srcLayout = prop_def(DataLayoutAttr)
    dstLayout = prop_def(DataLayoutAttr)
    static_output_shape = prop_def(DenseArrayBase)
    result = result_def(MEMREF_OR_TENSOR)

    traits = traits_def(Pure())

    def verify_(self) -> None:
        # bishengir's checks and words
        element = element_type_of(self.result)
        if element_type_of(self.source) != element:
            raise VerifyException("requires the same element type for all operands and results")
        dynamic = sum(1 for v in array_values(self.static_output_shape) if v == DYNAMIC_INDEX)
        if dynamic != len(self.output_shape):
            raise VerifyException(f"expected {dynamic} dynamic dimensions but got {len(self.output_shape)}")
        if isinstance(self.source.type, MemRefType) != isinstance(self.result.type, MemRefType) or isinstance(
            self.source.type, TensorType
        ) != isinstance(self.result.type, TensorType):
            raise VerifyException(f"source and result are both memrefs or both tensors, got {self.source.type} -> {self.result.type}")

    @classmethod
    def parse(cls, parser: Parser) -> ConvertLayoutOp:
        source = parser.parse_unresolved_operand()
        parser.parse_keyword("output_shape")
        values, static = parse_dynamic_index_list(parser)
        attrs = parser.parse_optional_attr_dict()
        props: dict[str, Attribute] = {"static_output_shape": static}
        for key in ("srcLayout", "dstLayout"):
            if key in attrs:
                props[key] = attrs.pop(key)
        parser.parse_punctuation(":")
        parser.parse_punctuation("(")
        source_type = parser.parse_type()
        parser.parse_punctuation(")")
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        op = cls(
            operands=[parser.resolve_operand(source, source_type), values],
            result_types=[result_type],
            properties=dict(sorted(props.items())),
            attributes=attrs,
        )
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(" output_shape ")
        print_dynamic_index_list(printer, self.output_shape, self.static_output_shape)
        entries = {k: v for k, v in self.properties.items() if k != "static_output_shape"}
        print_mlir_attr_dict(printer, entries | self.attributes)
        printer.print_string(" : (")
        printer.print_attribute(self.source.type)
        printer.print_string(") -> ")
        printer.print_attribute(self.result.type)


LAYOUT_OPS = (ConvertLayoutOp,)
