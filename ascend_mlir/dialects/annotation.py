"""The `annotation` dialect: `annotation.mark`, bishengir's way to attach hints to a value.

`annotation.mark %buf {hivm.multi_buffer = 2 : i32} : memref<...>` asks bishengir to
multi-buffer `%buf`; `keys = [...] values = [%v : t]` attaches SSA values to keys.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, opt_prop_def, var_operand_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class MarkOp(IRDLOperation):
    name = "annotation.mark"

    src = operand_def()
    values = var_operand_def()
    keys = opt_prop_def(ArrayAttr[StringAttr])

    def __init__(
        self,
        src: SSAValue | Operation,
        attributes: dict[str, Attribute] | None = None,
        *,
        keys: list[str] | None = None,
        values: list[SSAValue | Operation] | None = None,
    ):
        props: dict[str, Attribute] = {}
        if keys is not None:
            props["keys"] = ArrayAttr([StringAttr(k) for k in keys])
        super().__init__(operands=[src, values or []], properties=props, attributes=attributes or {})

    def verify_(self) -> None:
        if self.values and (self.keys is None or len(self.keys.data) != len(self.values)):
            raise VerifyException(f"{self.name}: every value needs a key ({len(self.values)} values)")

    @classmethod
    def parse(cls, parser: Parser) -> MarkOp:
        src = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        keys = None
        if "keys" in attrs:
            keys = attrs.pop("keys")
        values: list[SSAValue] = []
        if parser.parse_optional_keyword("keys"):
            parser.parse_punctuation("=")
            keys = parser.parse_attribute()
        if parser.parse_optional_keyword("values"):
            parser.parse_punctuation("=")
            parser.parse_punctuation("[")
            unresolved = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_unresolved_operand)
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
            parser.parse_punctuation("]")
            values = [parser.resolve_operand(u, t) for u, t in zip(unresolved, types, strict=True)]
        parser.parse_punctuation(":")
        src_value = parser.resolve_operand(src, parser.parse_type())
        op = cls.create(
            operands=[src_value, *values],
            properties={"keys": keys} if keys is not None else {},
            attributes=attrs,
        )
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        printer.print_op_attributes(self.attributes)
        if self.keys is not None:
            printer.print_string(" keys = ")
            printer.print_attribute(self.keys)
        if self.values:
            printer.print_string(" values = [")
            printer.print_list(self.values, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list([v.type for v in self.values], printer.print_attribute)
            printer.print_string("]")
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)


Annotation = Dialect("annotation", [MarkOp], [])
