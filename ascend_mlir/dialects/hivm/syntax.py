"""Custom-syntax helpers: the shapes bishengir's assembly formats print, and the base class
`HivmOp` that splits attr-dicts from properties and elides defaults the way bishengir does."""

from __future__ import annotations

from abc import ABC
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal, cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    UnitAttr,
    i64,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation, VarResultDef
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    OptionalOperandVariable,
    ParsingState,
    PrintingState,
    UniqueBaseAttributeVariable,
    irdl_custom_directive,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum

from ascend_mlir.dialects.hivm.attrs import (
    EventAttr,
    parse_event_body,
)
from ascend_mlir.dialects.hivm.interface import (
    HivmPipeOp,
    SrcToDstOp,
    array_values,
    i64_array,
)

# ---------------------------------------------------------------------------
# Custom-syntax helpers (the shapes bishengir's assembly formats print)
# ---------------------------------------------------------------------------


def parse_enum(parser: Parser, attr_type: type[Attribute]) -> Attribute:
    """Parse `#hivm.<mnemonic><X>` or the short form `<X>` of a hivm enum attribute."""
    if parser.parse_optional_punctuation("<") is not None:
        if attr_type is EventAttr:
            return EventAttr(parse_event_body(parser))
        enum_cls = cast(type[EnumAttribute[StrEnum]], attr_type)
        value = parser.parse_str_enum(enum_cls.enum_type)
        parser.parse_punctuation(">")
        return enum_cls(value)
    pos = parser.pos
    attr = parser.parse_attribute()
    if not isinstance(attr, attr_type):
        parser.raise_error(
            f"expected #{attr_type.name}<...> attribute, got {attr}", pos, parser.pos
        )
    return attr


def print_short(printer: Printer, attr: Attribute) -> None:
    """The short form MLIR prints for a dialect attribute inside its own op: `<X>`."""
    if isinstance(attr, EventAttr):
        printer.print_string(f"<EVENT_ID{attr.data}>")
    else:
        printer.print_string(f"<{cast(EnumAttribute[StrEnum], attr).data.value}>")


@irdl_custom_directive
class ShortEnum(CustomDirective):
    """`custom<ShortEnum>($prop)`: a hivm enum attribute as MLIR prints it inside its own
    dialect's op (`<PIPE_V>`); the long form `#hivm.pipe<PIPE_V>` parses too."""

    attr: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> bool:
        assert isinstance(self.attr, UniqueBaseAttributeVariable), "ShortEnum needs an enum attribute"
        self.attr.set(state, parse_enum(parser, self.attr.unique_base))
        return True

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        attr = self.attr.get(op)
        if attr is not None:
            state.print_whitespace(printer)
            print_short(printer, attr)

    # an optional enum can anchor an optional group: `(`kw` `=` custom<ShortEnum>($p)^)?`
    def is_anchorable(self) -> bool:
        return True

    def is_present(self, op: IRDLOperation) -> bool:
        return self.attr.get(op) is not None


def _parse_static_or_value(
    parser: Parser, state: ParsingState, static: AttributeVariable, dynamic: OptionalOperandVariable,
    parse_static: Callable[[], Attribute],
) -> bool:
    """An i64 SSA value into `dynamic`, or else `parse_static()` into `static`."""
    operand = parser.parse_optional_unresolved_operand()
    dynamic.set(state, operand)
    dynamic.set_types(state, () if operand is None else (i64,))
    if operand is None:
        static.set(state, parse_static())
    return True


def _print_static_or_value(
    printer: Printer, state: PrintingState, op: IRDLOperation, static: AttributeVariable,
    dynamic: OptionalOperandVariable, print_static: Callable[[Attribute], None],
) -> None:
    value = dynamic.get(op)
    attr = static.get(op)
    state.print_whitespace(printer)
    if value is not None:
        printer.print_operand(value)
    elif attr is not None:
        print_static(attr)


@irdl_custom_directive
class EventOrValue(CustomDirective):
    """`custom<EventOrValue>($static_event_id, $dynamic_event_id)`: `<EVENT_ID3>` (also
    `#hivm.event<EVENT_ID3>`) or an i64 SSA value, as bishengir's set_flag/wait_flag take."""

    static: AttributeVariable
    dynamic: OptionalOperandVariable

    def parse(self, parser: Parser, state: ParsingState) -> bool:
        return _parse_static_or_value(parser, state, self.static, self.dynamic, lambda: parse_enum(parser, EventAttr))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        _print_static_or_value(printer, state, op, self.static, self.dynamic, lambda a: print_short(printer, a))


@irdl_custom_directive
class IntOrValue(CustomDirective):
    """`custom<IntOrValue>($static_id, $dynamic_id)`: an integer (an i64 property) or an
    i64 SSA value, as bishengir's sync_block_set/wait take their flag id."""

    static: AttributeVariable
    dynamic: OptionalOperandVariable

    def parse(self, parser: Parser, state: ParsingState) -> bool:
        return _parse_static_or_value(
            parser, state, self.static, self.dynamic,
            lambda: IntegerAttr(parser.parse_integer(allow_boolean=False), i64),
        )

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        _print_static_or_value(
            printer, state, op, self.static, self.dynamic,
            lambda a: printer.print_string(str(cast(IntegerAttr, a).value.data)),
        )


def parse_values_with_types(parser: Parser) -> list[SSAValue]:
    """`(` %a, %b `:` t1, t2 `)`."""
    parser.parse_punctuation("(")
    unresolved: list[UnresolvedOperand] = parser.parse_comma_separated_list(
        Parser.Delimiter.NONE, parser.parse_unresolved_operand
    )
    parser.parse_punctuation(":")
    pos = parser.pos
    types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    if len(types) != len(unresolved):
        parser.raise_error(
            f"expected {len(unresolved)} types, got {len(types)}", pos, parser.pos
        )
    return [parser.resolve_operand(u, t) for u, t in zip(unresolved, types)]


def print_values_with_types(printer: Printer, values: Sequence[SSAValue]) -> None:
    printer.print_string("(")
    printer.print_list(values, printer.print_operand)
    printer.print_string(" : ")
    printer.print_list([v.type for v in values], printer.print_attribute)
    printer.print_string(")")


def parse_keyword_values(parser: Parser, keyword: str, count: int | None = None) -> list[SSAValue]:
    """`keyword(%a, %b : t1, t2)` (the keyword is required); `count`: how many values the
    op takes there (a parse error otherwise)."""
    parser.parse_keyword(keyword)
    pos = parser.pos
    values = parse_values_with_types(parser)
    if count is not None and len(values) != count:
        parser.raise_error(f"expected {count} value{'s' * (count != 1)} in `{keyword}`, got {len(values)}", pos, parser.pos)
    return values


def print_keyword_values(printer: Printer, keyword: str, values: Sequence[SSAValue]) -> None:
    """` keyword(%a, %b : t1, t2)`."""
    printer.print_string(f" {keyword}")
    print_values_with_types(printer, values)


def parse_value_with_type(parser: Parser) -> SSAValue:
    """`%v : type` (no parentheses)."""
    unresolved = parser.parse_unresolved_operand()
    parser.parse_punctuation(":")
    return parser.resolve_operand(unresolved, parser.parse_type())


def print_value_with_type(printer: Printer, value: SSAValue) -> None:
    printer.print_operand(value)
    printer.print_string(" : ")
    printer.print_attribute(value.type)


def parse_result_types(parser: Parser) -> list[Attribute]:
    """The tensor form's trailing `-> type, ...` (results of the tensor `outs`); [] without."""
    if parser.parse_optional_punctuation("->") is None:
        return []
    return parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)


def print_result_types(printer: Printer, results: Sequence[SSAValue]) -> None:
    """` -> type, ...` when the op has (tensor) results."""
    if results:
        printer.print_string(" -> ")
        printer.print_list([r.type for r in results], printer.print_attribute)


def parse_int_list(parser: Parser) -> DenseArrayBase:
    values = parser.parse_comma_separated_list(
        Parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
    )
    return i64_array(values)


def print_int_list(printer: Printer, attr: DenseArrayBase) -> None:
    printer.print_string("[")
    printer.print_list(array_values(attr), lambda v: printer.print_string(str(v)))
    printer.print_string("]")


def parse_bool(parser: Parser) -> BoolAttr:
    return IntegerAttr.from_bool(parser.parse_boolean())


def parse_paren_value(parser: Parser, keyword: str) -> SSAValue:
    """`keyword ( %v : type )` (the keyword is required)."""
    parser.parse_keyword(keyword)
    parser.parse_punctuation("(")
    value = parse_value_with_type(parser)
    parser.parse_punctuation(")")
    return value


def print_paren_value(printer: Printer, keyword: str, value: SSAValue) -> None:
    """` keyword(%v : type)`."""
    printer.print_string(f" {keyword}(")
    print_value_with_type(printer, value)
    printer.print_string(")")


ClauseKind = Literal["enum", "value", "bool", "ints", "paren", "colon_bool"]


@dataclass(frozen=True)
class Clause:
    """One keyword clause of a hivm op's custom syntax, after its operands:

    * `enum`: `kw = <X>` (a hivm enum property, short form; the long form parses too);
    * `value`: `kw = %v : type` (an optional operand);
    * `bool`: `kw = true|false` (a bool property, printed whenever present; with
      `default_elided` left out at its default, as bishengir prints vtranspose's
      disable_align and load_scale's is_transposed);
    * `ints`: `kw = [1, 2]` (an i64 dense array property, printed when not empty);
    * `paren`: `kw(%v : type)` (an optional operand);
    * `colon_bool`: `kw : true|false` (a bool property, printed whenever present: vshr's round).

    `name` is the property or operand when it is not spelled like the keyword.
    `always`: an enum printed whenever present, also at its default (bishengir prints
    some that way). `required`: the clause must be there (and is always printed)."""

    keyword: str
    kind: ClauseKind
    attr_type: type[Attribute] | None = None
    name: str | None = None
    always: bool = False
    required: bool = False
    default_elided: bool = False

    @property
    def target(self) -> str:
        return self.name or self.keyword


def _parse_clause_body(
    parser: Parser, clause: Clause, props: dict[str, Attribute],
    operands: dict[str, SSAValue | Sequence[SSAValue] | None],
) -> None:
    if clause.kind == "paren":
        parser.parse_punctuation("(")
        operands[clause.target] = parse_value_with_type(parser)
        parser.parse_punctuation(")")
        return
    if clause.kind == "colon_bool":
        parser.parse_punctuation(":")
        props[clause.target] = parse_bool(parser)
        return
    parser.parse_punctuation("=")
    if clause.kind == "enum":
        assert clause.attr_type is not None, clause
        props[clause.target] = parse_enum(parser, clause.attr_type)
    elif clause.kind == "value":
        operands[clause.target] = parse_value_with_type(parser)
    elif clause.kind == "bool":
        props[clause.target] = parse_bool(parser)
    else:
        props[clause.target] = parse_int_list(parser)


def parse_clauses(
    parser: Parser, clauses: Sequence[Clause], props: dict[str, Attribute],
    operands: dict[str, SSAValue | Sequence[SSAValue] | None],
) -> None:
    """Parse `clauses` in their order, each when its keyword is there (or required)."""
    for clause in clauses:
        if clause.required:
            parser.parse_keyword(clause.keyword)
        elif not parser.parse_optional_keyword(clause.keyword):
            continue
        _parse_clause_body(parser, clause, props, operands)


def _clause_value(op: HivmOp, clause: Clause) -> Attribute | SSAValue | None:
    """What the clause prints, or None when it prints nothing."""
    if clause.kind in ("value", "paren"):
        return cast(SSAValue | None, getattr(op, clause.target, None))
    if (clause.kind == "enum" and not clause.always) or (clause.kind == "bool" and clause.default_elided):
        return op._format_prop(clause.target)
    value = op.properties.get(clause.target)
    if clause.kind == "ints" and not clause.required and not (isinstance(value, DenseArrayBase) and array_values(value)):
        return None
    return value


def print_clauses(printer: Printer, op: HivmOp, clauses: Sequence[Clause]) -> None:
    for clause in clauses:
        value = _clause_value(op, clause)
        if value is None:
            continue
        if clause.kind == "paren":
            print_paren_value(printer, clause.keyword, cast(SSAValue, value))
            continue
        if clause.kind == "colon_bool":
            printer.print_string(f" {clause.keyword} : ")
            printer.print_attribute(cast(Attribute, value))
            continue
        printer.print_string(f" {clause.keyword} = ")
        if clause.kind == "enum":
            print_short(printer, cast(Attribute, value))
        elif clause.kind == "value":
            print_value_with_type(printer, cast(SSAValue, value))
        elif clause.kind == "bool":
            printer.print_attribute(cast(Attribute, value))
        else:
            print_int_list(printer, cast(DenseArrayBase, value))


class HivmOp(HivmPipeOp, ABC):
    """Shared custom-format machinery: attr-dict splitting and default elision."""

    # Properties printed by the op's own syntax (never in its attr-dict).
    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ()
    # bishengir's DefaultValuedOptionalAttr: elided from the custom form at this value,
    # but (unlike DefaultValuedAttr) not materialised in the generic form.
    ELIDED_DEFAULTS: ClassVar[dict[str, Attribute]] = {}

    def __init__(
        self,
        *,
        operands: Sequence[SSAValue | Operation | Sequence[SSAValue | Operation] | None] | None = None,
        result_types: Sequence[Attribute | Sequence[Attribute] | None] | None = None,
        properties: Mapping[str, Attribute | None] | None = None,
        attributes: Mapping[str, Attribute | None] | None = None,
    ):
        defs = self.get_irdl_definition().results
        if result_types is None and defs and all(isinstance(d, VarResultDef) for _, d in defs):
            result_types = [[] for _ in defs]  # built on memrefs: no tensor-form results
        super().__init__(operands=operands, result_types=result_types, properties=properties, attributes=attributes)

    def __post_init__(self):
        super().__post_init__()
        # MLIR prints properties sorted by name; keep the generic forms identical.
        if list(self.properties) != sorted(self.properties):
            self.properties = dict(sorted(self.properties.items()))

    @classmethod
    def _materialised_defaults(cls) -> dict[str, Attribute]:
        defs = cls.get_irdl_definition().properties
        return {n: d.default_value for n, d in defs.items() if d.default_value is not None}

    @classmethod
    def _prop_defaults(cls) -> dict[str, Attribute]:
        return cls._materialised_defaults() | cls.ELIDED_DEFAULTS

    @classmethod
    def _parse_attr_dict(cls, parser: Parser) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
        """Parse an optional attr-dict; entries naming a property become properties."""
        attrs = parser.parse_optional_attr_dict()
        prop_names = cls.get_irdl_definition().properties.keys()
        props = {k: v for k, v in attrs.items() if k in prop_names}
        rest = {k: v for k, v in attrs.items() if k not in prop_names}
        return props, rest

    def _print_attr_dict(self, printer: Printer) -> None:
        defaults = self._prop_defaults()
        entries: dict[str, Attribute] = {}
        for name in sorted(self.properties):
            value = self.properties[name]
            if name == "operandSegmentSizes" or name in self.FORMAT_PROPS:
                continue
            if defaults.get(name) == value:
                continue
            entries[name] = value
        entries.update(self.attributes)
        if entries:
            printer.print_string(" ")
            printer.print_attr_dict(entries)

    def _format_prop(self, name: str) -> Attribute | None:
        """A property printed by the custom syntax, or None when absent or at its default."""
        value = self.properties.get(name)
        if value is None or self._prop_defaults().get(name) == value:
            return None
        return value

    @classmethod
    def _make(
        cls,
        operands: Mapping[str, SSAValue | Sequence[SSAValue] | None],
        props: dict[str, Attribute],
        attrs: dict[str, Attribute],
        result_types: Sequence[Attribute] = (),
    ):
        """Build the op from named operand groups in definition order."""
        op_def = cls.get_irdl_definition()
        ordered: list[SSAValue | Sequence[SSAValue] | None] = []
        for name, _ in op_def.operands:
            value = operands.get(name)
            ordered.append([] if value is None else value)
        defaults = {k: v for k, v in cls._materialised_defaults().items() if k not in props}
        results: list[Attribute | Sequence[Attribute]] = list(result_types)
        if len(op_def.results) == 1 and isinstance(op_def.results[0][1], VarResultDef):
            results = [list(result_types)]  # the tensor form's one variadic/optional group
        op = cls.build(
            operands=ordered,
            properties=defaults | props,
            attributes=attrs,
            result_types=results,
        )
        return op


class InsOutsOp(HivmOp, SrcToDstOp, ABC):
    """`attr-dict ins(%src : T) outs(%dst : T) <CLAUSES> <extra clauses> [-> T]`: the text
    of the ops that read one `src` and write one `dst` (with ATTR_DICT_FIRST false the
    attr-dict follows `outs(...)`, where bishengir prints it for load, store and copy)."""

    # the keyword clauses after `outs(...)`, in bishengir's order
    CLAUSES: ClassVar[tuple[Clause, ...]] = ()
    ATTR_DICT_FIRST: ClassVar[bool] = True

    @classmethod
    def _parse_src_dst(
        cls, parser: Parser,
    ) -> tuple[dict[str, Attribute], dict[str, Attribute], dict[str, SSAValue | Sequence[SSAValue] | None]]:
        """The head up to `outs(...)`: (properties, attributes, operands src and dst)."""
        props, attrs = cls._parse_attr_dict(parser) if cls.ATTR_DICT_FIRST else ({}, {})
        operands: dict[str, SSAValue | Sequence[SSAValue] | None] = {
            "src": parse_paren_value(parser, "ins"), "dst": parse_paren_value(parser, "outs"),
        }
        if not cls.ATTR_DICT_FIRST:
            props, attrs = cls._parse_attr_dict(parser)
        return props, attrs, operands

    def _print_src_dst(self, printer: Printer) -> None:
        """The head `_parse_src_dst` reads."""
        if self.ATTR_DICT_FIRST:
            self._print_attr_dict(printer)
        print_paren_value(printer, "ins", self.src)
        print_paren_value(printer, "outs", self.dst)
        if not self.ATTR_DICT_FIRST:
            self._print_attr_dict(printer)

    @classmethod
    def _parse_extra_clauses(
        cls, parser: Parser, props: dict[str, Attribute], operands: dict[str, SSAValue | Sequence[SSAValue] | None],
    ) -> None:
        """Clauses a subclass reads after CLAUSES (the syntax a Clause does not describe)."""

    def _print_extra_clauses(self, printer: Printer) -> None:
        """Clauses a subclass prints after CLAUSES (before the tensor form's result types)."""

    @classmethod
    def parse(cls, parser: Parser):
        props, attrs, operands = cls._parse_src_dst(parser)
        parse_clauses(parser, cls.CLAUSES, props, operands)
        cls._parse_extra_clauses(parser, props, operands)
        return cls._make(operands, props, attrs, parse_result_types(parser))

    def print(self, printer: Printer) -> None:
        self._print_src_dst(printer)
        print_clauses(printer, self, self.CLAUSES)
        self._print_extra_clauses(printer)
        print_result_types(printer, self.results)




def parse_unit_flags(
    parser: Parser,
    props: dict[str, Attribute],
    operands: dict[str, SSAValue | Sequence[SSAValue] | None],
) -> None:
    """`unit_flag_mode([#hivm.unit_flag<...>, ...])` `unit_flag_cond(%c, ...)` (both optional)."""
    if parser.parse_optional_keyword("unit_flag_mode"):
        parser.parse_punctuation("(")
        props["unit_flag_mode"] = parser.parse_attribute()
        parser.parse_punctuation(")")
    if parser.parse_optional_keyword("unit_flag_cond"):
        unresolved = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        operands["unit_flag_cond"] = [parser.resolve_operand(u, IntegerType(1)) for u in unresolved]


def print_unit_flags(printer: Printer, mode: Attribute | None, conds: Sequence[SSAValue]) -> None:
    if mode is not None:
        printer.print_string(" unit_flag_mode(")
        printer.print_attribute(mode)
        printer.print_string(")")
    if conds:
        printer.print_string(" unit_flag_cond(")
        printer.print_list(conds, printer.print_operand)
        printer.print_string(")")



def print_mlir_attribute(printer: Printer, attr: Attribute) -> None:
    """An attribute as MLIR prints it inside an attr-dict: an i64 integer without its
    type (i64 is an integer attribute's default), arrays element by element."""
    if isinstance(attr, IntegerAttr) and attr.type == i64:
        printer.print_string(str(attr.value.data))
    elif isinstance(attr, ArrayAttr):
        printer.print_string("[")
        printer.print_list(cast(ArrayAttr[Attribute], attr).data, lambda a: print_mlir_attribute(printer, a))
        printer.print_string("]")
    else:
        printer.print_attribute(attr)


def print_mlir_attr_dict(printer: Printer, entries: Mapping[str, Attribute]) -> None:
    """` {k = v, ...}` sorted by name, as MLIR prints a dictionary; nothing when empty."""
    if not entries:
        return
    printer.print_string(" {")

    def entry(item: tuple[str, Attribute]) -> None:
        printer.print_identifier_or_string_literal(item[0])
        if not isinstance(item[1], UnitAttr):
            printer.print_string(" = ")
            print_mlir_attribute(printer, item[1])

    printer.print_list(sorted(entries.items()), entry)
    printer.print_string("}")
