"""The `hivm` dialect: a faithful subset of AscendNPU IR's HIVM (bishengir-opt 1.2.0).

Op names, operand order, custom assembly and property names follow bishengir-opt
1.2.0, so IR printed here parses there and the reverse, in custom and generic form.
Only memref (buffer) semantics are modelled; the tensor results of the real ops are not.

Besides syntax, each op knows the hardware pipe(s) it issues to and which memrefs it
reads and writes (`HivmPipeOp`), the interface that scheduling, sync insertion and the
simulator build on. Verifiers encode the hardware rules (legal scope pair per DMA op,
operand scopes and shapes of mmadL1, flag pipes and event ids, vector operand scopes).
They are at least as strict as bishengir-opt's own; where the chip matters (the cc -> ub
and ub -> cbuf paths of Ascend 950) they read the module's `hacc.target`. A memref with
no memory space is "not assigned yet" (bishengir infers it later) and is accepted.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar, cast

from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    DYNAMIC_INDEX,
    BoolAttr,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    I64,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    ShapedType,
    UnitAttr,
    i64,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, Data, Dialect, Operation, ParametrizedAttribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from ascend_mlir import hardware

# ---------------------------------------------------------------------------
# Attributes
# ---------------------------------------------------------------------------


class _AngleEnum:
    """Print/parse an enum attribute as `#hivm.<mnemonic><VALUE>` (MLIR's `<` params `>`)."""

    enum_type: ClassVar[type[StrEnum]]
    data: StrEnum

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_identifier_or_string_literal(self.data.value)
        printer.print_string(">")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> StrEnum:
        parser.parse_punctuation("<")
        value = parser.parse_str_enum(cls.enum_type)
        parser.parse_punctuation(">")
        return value


class AddressSpace(StrEnum):
    ZERO = "zero"
    GM = "gm"
    CBUF = "cbuf"  # L1
    CA = "ca"  # L0A
    CB = "cb"  # L0B
    CC = "cc"  # L0C
    UB = "ub"  # unified buffer (vector core)


@irdl_attr_definition
class AddressSpaceAttr(_AngleEnum, EnumAttribute[AddressSpace]):
    """Memory space of a memref: `#hivm.address_space<gm|cbuf|ca|cb|cc|ub>`."""

    name = "hivm.address_space"


class Pipe(StrEnum):
    PIPE_S = "PIPE_S"
    PIPE_V = "PIPE_V"
    PIPE_M = "PIPE_M"
    PIPE_MTE1 = "PIPE_MTE1"
    PIPE_MTE2 = "PIPE_MTE2"
    PIPE_MTE3 = "PIPE_MTE3"
    PIPE_ALL = "PIPE_ALL"
    PIPE_MTE4 = "PIPE_MTE4"
    PIPE_MTE5 = "PIPE_MTE5"
    PIPE_V2 = "PIPE_V2"
    PIPE_FIX = "PIPE_FIX"
    VIRTUAL_PIPE_MTE2_L1A = "VIRTUAL_PIPE_MTE2_L1A"
    VIRTUAL_PIPE_MTE2_L1B = "VIRTUAL_PIPE_MTE2_L1B"
    PIPE_NUM = "PIPE_NUM"
    PIPE_UNASSIGNED = "PIPE_UNASSIGNED"


# The pipes our scheduler, sync insertion and simulator reason about.
PIPE_NAMES: tuple[str, ...] = hardware.PIPES


@irdl_attr_definition
class PipeAttr(_AngleEnum, EnumAttribute[Pipe]):
    """A hardware pipe: `#hivm.pipe<PIPE_MTE2>` (short `<PIPE_MTE2>` inside sync ops)."""

    name = "hivm.pipe"

    @property
    def pipe_name(self) -> str:
        """"MTE2" for PIPE_MTE2, "ALL" for PIPE_ALL, "VIRTUAL_PIPE_MTE2_L1A" as is."""
        value = self.data.value
        return value[len("PIPE_") :] if value.startswith("PIPE_") else value


def pipe_attr(name: str) -> PipeAttr:
    """`pipe_attr("MTE2")` (or "PIPE_MTE2") -> `#hivm.pipe<PIPE_MTE2>`."""
    spelled = name if name.startswith(("PIPE_", "VIRTUAL_")) else "PIPE_" + name
    try:
        return PipeAttr(Pipe(spelled))
    except ValueError:
        raise ValueError(f"unknown pipe name {name!r}") from None


@irdl_attr_definition
class EventAttr(Data[int]):
    """A flag event id: `#hivm.event<EVENT_ID3>`.

    Any `EVENT_ID<n>` parses; the range 0..7 (8 events per pipe pair) is checked by
    the verifiers of set_flag/wait_flag so that an out-of-range id is a diagnostic on the op.
    """

    name = "hivm.event"

    @property
    def index(self) -> int:
        return self.data

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<EVENT_ID{self.data}>")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> int:
        parser.parse_punctuation("<")
        return _parse_event_body(parser)


_EVENT_RE = re.compile(r"EVENT_ID(\d+)$")


def _parse_event_body(parser: AttrParser) -> int:
    """Parse `EVENT_ID<n>` `>` (the `<` already consumed)."""
    pos = parser.pos
    ident = parser.parse_identifier()
    match = _EVENT_RE.match(ident)
    if match is None:
        parser.raise_error(f"expected EVENT_ID<n>, got {ident}", pos, parser.pos)
    parser.parse_punctuation(">")
    return int(match.group(1))


def event_attr(index: int) -> EventAttr:
    return EventAttr(index)


class TCoreType(StrEnum):
    CUBE = "CUBE"
    VECTOR = "VECTOR"
    CUBE_OR_VECTOR = "CUBE_OR_VECTOR"
    CUBE_AND_VECTOR = "CUBE_AND_VECTOR"


@irdl_attr_definition
class TCoreTypeAttr(_AngleEnum, EnumAttribute[TCoreType]):
    name = "hivm.tcore_type"


class FuncCoreType(StrEnum):
    AIC = "AIC"
    AIV = "AIV"
    MIX = "MIX"
    AIC_OR_AIV = "AIC_OR_AIV"


@irdl_attr_definition
class FuncCoreTypeAttr(_AngleEnum, EnumAttribute[FuncCoreType]):
    """`hivm.func_core_type = #hivm.func_core_type<AIC|AIV|MIX>` on a kernel function."""

    name = "hivm.func_core_type"


class ModuleCoreType(StrEnum):
    AIC = "AIC"
    AIV = "AIV"
    MIX = "MIX"


@irdl_attr_definition
class ModuleCoreTypeAttr(_AngleEnum, EnumAttribute[ModuleCoreType]):
    name = "hivm.module_core_type"


@irdl_attr_definition
class PartOfMixAttr(ParametrizedAttribute):
    """`#hivm.part_of_mix` (bishengir also uses the unit attribute `hivm.part_of_mix`)."""

    name = "hivm.part_of_mix"


class PadMode(StrEnum):
    PadNull = "PadNull"
    PadFirstElem = "PadFirstElem"
    PadValue = "PadValue"


@irdl_attr_definition
class PadModeAttr(_AngleEnum, EnumAttribute[PadMode]):
    name = "hivm.padmode"


class AtomicKind(StrEnum):
    NONE = "none"
    ADD = "add"
    MAX = "max"
    MIN = "min"
    AND = "and"
    OR = "or"
    XOR = "xor"
    UMAX = "umax"
    UMIN = "umin"


@irdl_attr_definition
class AtomicKindAttr(_AngleEnum, EnumAttribute[AtomicKind]):
    name = "hivm.atomic_kind"


class RoundMode(StrEnum):
    RINT = "rint"
    ROUND = "round"
    FLOOR = "floor"
    CEIL = "ceil"
    TRUNC = "trunc"
    ODD = "odd"
    TRUNCWITHOVERFLOW = "truncwithoverflow"


@irdl_attr_definition
class RoundModeAttr(_AngleEnum, EnumAttribute[RoundMode]):
    name = "hivm.round_mode"


class TypeFn(StrEnum):
    cast_signed = "cast_signed"
    cast_unsigned = "cast_unsigned"
    bitcast = "bitcast"


@irdl_attr_definition
class TypeFnAttr(_AngleEnum, EnumAttribute[TypeFn]):
    name = "hivm.cast"


class ReduceOpKind(StrEnum):
    none = "none"
    sum = "sum"
    prod = "prod"
    max = "max"
    min = "min"
    max_with_index_left = "max_with_index_left"
    max_with_index_right = "max_with_index_right"
    min_with_index_left = "min_with_index_left"
    min_with_index_right = "min_with_index_right"
    any = "any"
    all = "all"
    xori = "xori"
    ori = "ori"
    andi = "andi"


@irdl_attr_definition
class ReduceOpAttr(_AngleEnum, EnumAttribute[ReduceOpKind]):
    name = "hivm.reduce_op"


class FixpipeDMAMode(StrEnum):
    NZ2ND = "nz2nd"
    NZ2DN = "nz2dn"
    NZ2NZ = "normal"


@irdl_attr_definition
class FixpipeDMAModeAttr(_AngleEnum, EnumAttribute[FixpipeDMAMode]):
    name = "hivm.dma_mode"


class FixpipeDualDstMode(StrEnum):
    NO_DUAL = "NO_DUAL"
    ROW_SPLIT = "ROW_SPLIT"
    COLUMN_SPLIT = "COLUMN_SPLIT"


@irdl_attr_definition
class FixpipeDualDstModeAttr(_AngleEnum, EnumAttribute[FixpipeDualDstMode]):
    name = "hivm.fixpipe_dual_dst_mode"


class FixpipePreQuantMode(StrEnum):
    NO_QUANT = "NO_QUANT"
    F322F16 = "F322F16"
    S322I8 = "S322I8"
    F322BF16 = "F322BF16"


@irdl_attr_definition
class FixpipePreQuantModeAttr(_AngleEnum, EnumAttribute[FixpipePreQuantMode]):
    name = "hivm.fixpipe_pre_quant_mode"


class FixpipePreReluMode(StrEnum):
    NO_RELU = "NO_RELU"
    NORMAL_RELU = "NORMAL_RELU"
    LEAKY_RELU = "LEAKY_RELU"
    P_RELU = "P_RELU"


@irdl_attr_definition
class FixpipePreReluModeAttr(_AngleEnum, EnumAttribute[FixpipePreReluMode]):
    name = "hivm.fixpipe_pre_relu_mode"


class UnitFlag(StrEnum):
    DISABLED = "DISABLED"
    RESERVED = "RESERVED"
    ENABLED_WITHOUT_UPDATE = "ENABLED_WITHOUT_UPDATE"
    ENABLED_WITH_UPDATE = "ENABLED_WITH_UPDATE"


@irdl_attr_definition
class UnitFlagAttr(_AngleEnum, EnumAttribute[UnitFlag]):
    """`#hivm.unit_flag<...>`: L0C unit-flag synchronisation between mmadL1 and fixpipe."""

    name = "hivm.unit_flag"


class SyncBlockInstrMode(StrEnum):
    INTER_BLOCK_SYNCHRONIZATION = "INTER_BLOCK_SYNCHRONIZATION"
    INTER_SUBBLOCK_SYNCHRONIZATION = "INTER_SUBBLOCK_SYNCHRONIZATION"
    INTRA_BLOCK_SYNCHRONIZATION = "INTRA_BLOCK_SYNCHRONIZATION"


@irdl_attr_definition
class SyncBlockInstrModeAttr(_AngleEnum, EnumAttribute[SyncBlockInstrMode]):
    name = "hivm.sync_block_instr_mode"


# ---------------------------------------------------------------------------
# Scope helpers
# ---------------------------------------------------------------------------

ON_CHIP_SCOPES: tuple[str, ...] = hardware.ON_CHIP_SCOPES


def address_space(name: str) -> AddressSpaceAttr:
    """`address_space("ub")` -> `#hivm.address_space<ub>`."""
    try:
        return AddressSpaceAttr(AddressSpace(name))
    except ValueError:
        raise ValueError(f"unknown hivm address space {name!r}") from None


def scope_of(t: Attribute | SSAValue) -> str | None:
    """"gm"/"cbuf"/"ca"/"cb"/"cc"/"ub" for a memref in a hivm address space, else None."""
    if isinstance(t, SSAValue):
        t = t.type
    if isinstance(t, MemRefType):
        space = cast(MemRefType[Attribute], t).memory_space
        if isinstance(space, AddressSpaceAttr) and space.data != AddressSpace.ZERO:
            return space.data.value
    return None


def _is_memref(value: SSAValue) -> bool:
    return isinstance(value.type, MemRefType)


def _memref_values(values: Sequence[SSAValue]) -> tuple[SSAValue, ...]:
    return tuple(v for v in values if _is_memref(v))


def _scope_text(value: SSAValue) -> str:
    if not _is_memref(value):
        return f"a non-memref value of type {value.type}"
    return scope_of(value) or "no hivm address space"


def _shape(value: SSAValue) -> tuple[int, ...] | None:
    t = value.type
    if isinstance(t, ShapedType):
        return tuple(t.get_shape())
    return None


def _element_type(value: SSAValue) -> Attribute:
    t = value.type
    if isinstance(t, MemRefType):
        return cast(MemRefType[Attribute], t).element_type
    return t


def _constant_int(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def _i64_array(values: Sequence[int] | DenseArrayBase) -> DenseArrayBase:
    if isinstance(values, DenseArrayBase):
        return values
    return DenseArrayBase.from_list(i64, [int(v) for v in values])


def _array_values(attr: DenseArrayBase | None) -> tuple[int, ...]:
    if attr is None:
        return ()
    return cast(tuple[int, ...], attr.get_values())


# ---------------------------------------------------------------------------
# The pipe interface
# ---------------------------------------------------------------------------

_core_of_pipes = hardware.core_of_pipes


class HivmPipeOp(IRDLOperation, ABC):
    """Every hivm compute, DMA and sync op: which pipes it occupies, on which core,
    and which memref operands it reads and writes."""

    @abstractmethod
    def pipes(self) -> tuple[str, ...]:
        """Pipe names from MTE1 MTE2 MTE3 M V FIX S (pipe_barrier[PIPE_ALL]: all of them)."""

    def core_type(self) -> str:
        """"CUBE", "VECTOR" or "SCALAR"."""
        return _core_of_pipes(self.pipes())

    def memref_reads(self) -> tuple[SSAValue, ...]:
        return _memref_values(self.ins)

    def memref_writes(self) -> tuple[SSAValue, ...]:
        return _memref_values(self.outs)

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        return ()

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return ()


def op_pipes(op: Operation) -> tuple[str, ...]:
    """The pipes of a hivm op; () for any other op."""
    if isinstance(op, HivmPipeOp):
        return op.pipes()
    return ()


# ---------------------------------------------------------------------------
# Custom-syntax helpers (the shapes bishengir's assembly formats print)
# ---------------------------------------------------------------------------


def _parse_enum(parser: Parser, attr_type: type[Attribute]) -> Attribute:
    """Parse `#hivm.<mnemonic><X>` or the short form `<X>` of a hivm enum attribute."""
    if parser.parse_optional_punctuation("<") is not None:
        if attr_type is EventAttr:
            return EventAttr(_parse_event_body(parser))
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


def _print_short(printer: Printer, attr: Attribute) -> None:
    """The short form MLIR prints for a dialect attribute inside its own op: `<X>`."""
    if isinstance(attr, EventAttr):
        printer.print_string(f"<EVENT_ID{attr.data}>")
    else:
        printer.print_string(f"<{cast(EnumAttribute[StrEnum], attr).data.value}>")


def _parse_values_with_types(parser: Parser) -> list[SSAValue]:
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


def _print_values_with_types(printer: Printer, values: Sequence[SSAValue]) -> None:
    printer.print_string("(")
    printer.print_list(values, printer.print_operand)
    printer.print_string(" : ")
    printer.print_list([v.type for v in values], printer.print_attribute)
    printer.print_string(")")


def _parse_value_with_type(parser: Parser) -> SSAValue:
    """`%v : type` (no parentheses)."""
    unresolved = parser.parse_unresolved_operand()
    parser.parse_punctuation(":")
    return parser.resolve_operand(unresolved, parser.parse_type())


def _print_value_with_type(printer: Printer, value: SSAValue) -> None:
    printer.print_operand(value)
    printer.print_string(" : ")
    printer.print_attribute(value.type)


def _parse_int_list(parser: Parser) -> DenseArrayBase:
    values = parser.parse_comma_separated_list(
        Parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
    )
    return _i64_array(values)


def _print_int_list(printer: Printer, attr: DenseArrayBase) -> None:
    printer.print_string("[")
    printer.print_list(_array_values(attr), lambda v: printer.print_string(str(v)))
    printer.print_string("]")


def _parse_bool(parser: Parser) -> BoolAttr:
    return IntegerAttr.from_bool(parser.parse_boolean())


class _HivmOp(HivmPipeOp, ABC):
    """Shared custom-format machinery: attr-dict splitting and default elision."""

    # Properties printed by the op's own syntax (never in its attr-dict).
    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ()
    # bishengir's DefaultValuedOptionalAttr: elided from the custom form at this value,
    # but (unlike DefaultValuedAttr) not materialised in the generic form.
    ELIDED_DEFAULTS: ClassVar[dict[str, Attribute]] = {}

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
        operands: dict[str, SSAValue | Sequence[SSAValue] | None],
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
        op = cls.build(
            operands=ordered,
            properties=defaults | props,
            attributes=attrs,
            result_types=list(result_types),
        )
        return op


def target_name(op: Operation) -> str | None:
    """The `hacc.target` chip name of the closest enclosing module that carries one."""
    from ascend_mlir.dialects.hacc import TARGET, TargetAttr

    current: Operation | None = op
    while current is not None:
        if isinstance(current, ModuleOp):
            target = current.attributes.get(TARGET)
            if isinstance(target, TargetAttr):
                return target.data
        current = current.parent_op()
    return None


def _has_950_paths(op: Operation) -> tuple[bool, str]:
    """Ascend 950 (our default chip) adds the L0C -> UB and UB -> L1 paths; 910B lacks them."""
    name = target_name(op)
    return (name is None or name.startswith("Ascend950")), name or "Ascend950PR_9599"


def scope_unassigned(value: SSAValue | Attribute) -> bool:
    """A memref without a memory space (or `#hivm.address_space<zero>`): bishengir's
    infer-hivm-mem-scope has not assigned it yet. Verifiers accept it, so IR from before
    that inference flows in; every scope that *is* written must be legal."""
    t = value.type if isinstance(value, SSAValue) else value
    if not isinstance(t, MemRefType):
        return False
    space = cast(MemRefType[Attribute], t).memory_space
    return isinstance(space, NoneAttr) or space == AddressSpaceAttr(AddressSpace.ZERO)


def _verify_scope(op: Operation, value: SSAValue, role: str, allowed: Sequence[str], rule: str) -> None:
    scope = scope_of(value)
    if scope not in allowed and not scope_unassigned(value):
        raise VerifyException(
            f"{role} must be in {' or '.join(allowed)}, got {_scope_text(value)} ({rule})"
        )


def _verify_same_element_type(op: Operation, a: SSAValue, b: SSAValue, what: str) -> None:
    ta, tb = _element_type(a), _element_type(b)
    if ta != tb:
        raise VerifyException(f"{what} element types differ ({ta} vs {tb})")


def _verify_same_shape(op: Operation, a: SSAValue, b: SSAValue, what: str) -> None:
    sa, sb = _shape(a), _shape(b)
    if sa is None or sb is None:
        return
    if len(sa) != len(sb) or any(x != y and DYNAMIC_INDEX not in (x, y) for x, y in zip(sa, sb)):
        raise VerifyException(
            f"{what} shapes differ ({'x'.join(map(str, sa))} vs {'x'.join(map(str, sb))})"
        )


def _parse_unit_flags(
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


def _print_unit_flags(printer: Printer, mode: Attribute | None, conds: Sequence[SSAValue]) -> None:
    if mode is not None:
        printer.print_string(" unit_flag_mode(")
        printer.print_attribute(mode)
        printer.print_string(")")
    if conds:
        printer.print_string(" unit_flag_cond(")
        printer.print_list(conds, printer.print_operand)
        printer.print_string(")")


def _verify_padding(op: _HivmOp, pad_mode: PadModeAttr | None, pad_value: SSAValue | None) -> None:
    """Padding rules of load/copy: without padding the shapes match; with it only the last
    dimension may grow, and PadValue needs (PadFirstElem forbids) a pad value."""
    src, dst = op.operands[0], op.operands[1]
    mode = pad_mode.data if pad_mode is not None else PadMode.PadNull
    if mode == PadMode.PadNull:
        _verify_same_shape(op, src, dst, "without padding, source and destination")
        if pad_value is not None:
            raise VerifyException("pad_value needs pad_mode PadValue")
    else:
        if mode == PadMode.PadValue and pad_value is None:
            raise VerifyException("pad_mode PadValue needs a pad_value")
        if mode == PadMode.PadFirstElem and pad_value is not None:
            raise VerifyException("pad_mode PadFirstElem pads with the first element and takes no pad_value")
        src_shape, dst_shape = _shape(src), _shape(dst)
        if src_shape is not None and dst_shape is not None:
            if len(src_shape) != len(dst_shape) or any(
                x != y and DYNAMIC_INDEX not in (x, y) for x, y in zip(src_shape[:-1], dst_shape[:-1])
            ):
                raise VerifyException("with padding only the last dimension of source and destination may differ")
            if src_shape and DYNAMIC_INDEX not in (src_shape[-1], dst_shape[-1]) and dst_shape[-1] < src_shape[-1]:
                raise VerifyException(
                    f"padding cannot shrink the last dimension ({src_shape[-1]} -> {dst_shape[-1]})"
                )
    if pad_value is not None and pad_value.type != _element_type(dst):
        raise VerifyException(f"pad_value type {pad_value.type} differs from the element type {_element_type(dst)}")


# ---------------------------------------------------------------------------
# DMA ops
# ---------------------------------------------------------------------------


class _DmaOp(_HivmOp, ABC):
    src = operand_def(MemRefType)
    dst = operand_def(MemRefType)

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        return (self.src,)

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return (self.dst,)

    def memref_reads(self) -> tuple[SSAValue, ...]:
        return (self.src,)

    def memref_writes(self) -> tuple[SSAValue, ...]:
        return (self.dst,)

    @staticmethod
    def _parse_ins_outs(parser: Parser) -> tuple[SSAValue, SSAValue]:
        parser.parse_keyword("ins")
        parser.parse_punctuation("(")
        src = _parse_value_with_type(parser)
        parser.parse_punctuation(")")
        parser.parse_keyword("outs")
        parser.parse_punctuation("(")
        dst = _parse_value_with_type(parser)
        parser.parse_punctuation(")")
        return src, dst

    def _print_ins_outs(self, printer: Printer) -> None:
        printer.print_string(" ins(")
        _print_value_with_type(printer, self.src)
        printer.print_string(") outs(")
        _print_value_with_type(printer, self.dst)
        printer.print_string(")")


@irdl_op_definition
class LoadOp(_DmaOp):
    """gm -> ub on PIPE_MTE2 (optionally padding the destination)."""

    name = "hivm.hir.load"

    src = operand_def(MemRefType)
    dst = operand_def(MemRefType)
    pad_value = opt_operand_def()
    left_padding_num = opt_operand_def(IndexType)
    right_padding_num = opt_operand_def()
    init_condition = opt_operand_def()

    pad_mode = opt_prop_def(PadModeAttr)
    init_out_buffer = opt_prop_def(BoolAttr)
    may_implicit_transpose_with_last_axis = opt_prop_def(BoolAttr)
    tcoretype = opt_prop_def(TCoreTypeAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("pad_mode", "init_out_buffer", "may_implicit_transpose_with_last_axis", "tcoretype")

    def __init__(
        self,
        src: SSAValue | Operation,
        dst: SSAValue | Operation,
        *,
        pad_mode: PadModeAttr | None = None,
        pad_value: SSAValue | Operation | None = None,
        init_out_buffer: bool = False,
    ):
        props: dict[str, Attribute | None] = {"pad_mode": pad_mode}
        if init_out_buffer:
            props["init_out_buffer"] = IntegerAttr.from_bool(True)
        super().__init__(
            operands=[src, dst, [pad_value] if pad_value is not None else [], [], [], []],
            properties={k: v for k, v in props.items() if v is not None},
        )

    def pipes(self) -> tuple[str, ...]:
        return ("MTE2",)

    def core_type(self) -> str:
        return "VECTOR"

    def verify_(self) -> None:
        rule = "load moves gm -> ub"
        _verify_scope(self, self.src, "source", ("gm",), rule)
        _verify_scope(self, self.dst, "destination", ("ub",), rule)
        _verify_same_element_type(self, self.src, self.dst, "source and destination")
        _verify_padding(self, self.pad_mode, self.pad_value)

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        src, dst = cls._parse_ins_outs(parser)
        props, attrs = cls._parse_attr_dict(parser)
        operands: dict[str, SSAValue | None] = {"src": src, "dst": dst}
        if parser.parse_optional_keyword("pad_mode"):
            parser.parse_punctuation("=")
            props["pad_mode"] = _parse_enum(parser, PadModeAttr)
        for keyword in ("pad_value", "left_padding_num", "init_out_buffer", "right_padding_num",
                        "init_condition", "may_implicit_transpose_with_last_axis", "core_type"):
            if not parser.parse_optional_keyword(keyword):
                continue
            parser.parse_punctuation("=")
            if keyword in ("init_out_buffer", "may_implicit_transpose_with_last_axis"):
                props[keyword] = _parse_bool(parser)
            elif keyword == "core_type":
                props["tcoretype"] = _parse_enum(parser, TCoreTypeAttr)
            else:
                operands[keyword] = _parse_value_with_type(parser)
        return cls._make(operands, props, attrs)

    def print(self, printer: Printer) -> None:
        self._print_ins_outs(printer)
        self._print_attr_dict(printer)
        if (pad_mode := self._format_prop("pad_mode")) is not None:
            printer.print_string(" pad_mode = ")
            _print_short(printer, pad_mode)
        for name in ("pad_value", "left_padding_num"):
            if (value := getattr(self, name)) is not None:
                printer.print_string(f" {name} = ")
                _print_value_with_type(printer, value)
        # Optional groups of bishengir's format print whenever the property is present.
        if self.init_out_buffer is not None:
            printer.print_string(" init_out_buffer = ")
            printer.print_attribute(self.init_out_buffer)
        for name in ("right_padding_num", "init_condition"):
            if (value := getattr(self, name)) is not None:
                printer.print_string(f" {name} = ")
                _print_value_with_type(printer, value)
        if self.may_implicit_transpose_with_last_axis is not None:
            printer.print_string(" may_implicit_transpose_with_last_axis = ")
            printer.print_attribute(self.may_implicit_transpose_with_last_axis)
        if self.tcoretype is not None:
            printer.print_string(" core_type = ")
            _print_short(printer, self.tcoretype)


@irdl_op_definition
class StoreOp(_DmaOp):
    """ub -> gm on PIPE_MTE3 (optionally an atomic accumulate)."""

    name = "hivm.hir.store"

    src = operand_def(MemRefType)
    dst = operand_def(MemRefType)
    atomic_kind = opt_prop_def(AtomicKindAttr)
    may_implicit_transpose_with_last_axis = opt_prop_def(BoolAttr)

    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("atomic_kind",)
    ELIDED_DEFAULTS: ClassVar[dict[str, Attribute]] = {
        "may_implicit_transpose_with_last_axis": IntegerAttr.from_bool(False)
    }

    def __init__(self, src: SSAValue | Operation, dst: SSAValue | Operation, *, atomic_kind: AtomicKindAttr | None = None):
        super().__init__(
            operands=[src, dst],
            properties={"atomic_kind": atomic_kind} if atomic_kind is not None else {},
        )

    def pipes(self) -> tuple[str, ...]:
        return ("MTE3",)

    def core_type(self) -> str:
        return "VECTOR"

    def memref_reads(self) -> tuple[SSAValue, ...]:
        # An atomic store reads the destination it accumulates into.
        return (self.src, self.dst) if self.atomic_kind is not None else (self.src,)

    def verify_(self) -> None:
        rule = "store moves ub -> gm"
        _verify_scope(self, self.src, "source", ("ub",), rule)
        _verify_scope(self, self.dst, "destination", ("gm",), rule)
        _verify_same_element_type(self, self.src, self.dst, "source and destination")
        _verify_same_shape(self, self.src, self.dst, "source and destination")

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        src, dst = cls._parse_ins_outs(parser)
        props, attrs = cls._parse_attr_dict(parser)
        if parser.parse_optional_keyword("atomic"):
            parser.parse_punctuation("=")
            props["atomic_kind"] = _parse_enum(parser, AtomicKindAttr)
        return cls._make({"src": src, "dst": dst}, props, attrs)

    def print(self, printer: Printer) -> None:
        self._print_ins_outs(printer)
        self._print_attr_dict(printer)
        if (atomic := self._format_prop("atomic_kind")) is not None:
            printer.print_string(" atomic = ")
            _print_short(printer, atomic)


@irdl_op_definition
class CopyOp(_DmaOp):
    """On-chip copy: ub -> ub (vector pipe) or ub -> cbuf (MTE3, Ascend 950)."""

    name = "hivm.hir.copy"

    src = operand_def(MemRefType)
    dst = operand_def(MemRefType)
    pad_value = opt_operand_def()
    pad_mode = opt_prop_def(PadModeAttr)
    collapse_reassociation = opt_prop_def(ArrayAttr)

    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("pad_mode", "collapse_reassociation")

    def __init__(self, src: SSAValue | Operation, dst: SSAValue | Operation):
        super().__init__(operands=[src, dst, []])

    def pipes(self) -> tuple[str, ...]:
        return ("MTE3",) if scope_of(self.dst) == "cbuf" else ("V",)

    def core_type(self) -> str:
        return "VECTOR"

    def verify_(self) -> None:
        rule = "copy moves ub -> ub or ub -> cbuf"
        _verify_scope(self, self.src, "source", ("ub",), rule)
        _verify_scope(self, self.dst, "destination", ("ub", "cbuf"), rule)
        has_950_paths, target = _has_950_paths(self)
        if scope_of(self.dst) == "cbuf" and not has_950_paths:
            raise VerifyException(f"copy ub -> cbuf needs an Ascend 950 target, the module targets {target}")
        _verify_same_element_type(self, self.src, self.dst, "source and destination")
        if self.collapse_reassociation is None:
            _verify_padding(self, self.pad_mode, self.pad_value)

    @classmethod
    def parse(cls, parser: Parser) -> CopyOp:
        src, dst = cls._parse_ins_outs(parser)
        props, attrs = cls._parse_attr_dict(parser)
        operands: dict[str, SSAValue | None] = {"src": src, "dst": dst}
        if parser.parse_optional_keyword("pad_mode"):
            parser.parse_punctuation("=")
            props["pad_mode"] = _parse_enum(parser, PadModeAttr)
        if parser.parse_optional_keyword("pad_value"):
            parser.parse_punctuation("=")
            operands["pad_value"] = _parse_value_with_type(parser)
        if parser.parse_optional_keyword("collapse_reassociation"):
            parser.parse_punctuation("=")
            groups = parser.parse_comma_separated_list(
                Parser.Delimiter.SQUARE,
                lambda: parser.parse_comma_separated_list(
                    Parser.Delimiter.SQUARE, lambda: IntegerAttr(parser.parse_integer(allow_boolean=False), i64)
                ),
            )
            props["collapse_reassociation"] = ArrayAttr([ArrayAttr(g) for g in groups])
        return cls._make(operands, props, attrs)

    def print(self, printer: Printer) -> None:
        self._print_ins_outs(printer)
        self._print_attr_dict(printer)
        if self.pad_mode is not None:
            printer.print_string(" pad_mode = ")
            _print_short(printer, self.pad_mode)
        if self.pad_value is not None:
            printer.print_string(" pad_value = ")
            _print_value_with_type(printer, self.pad_value)
        if self.collapse_reassociation is not None:
            # bishengir prints the index lists without their i64 type
            printer.print_string(" collapse_reassociation = [")
            printer.print_list(
                self.collapse_reassociation.data,
                lambda group: printer.print_string(
                    "[" + ", ".join(str(cast(IntegerAttr, v).value.data) for v in cast(ArrayAttr, group).data) + "]"
                ),
            )
            printer.print_string("]")


@irdl_op_definition
class Nd2NzOp(_DmaOp):
    """gm -> cbuf on PIPE_MTE2, converting the ND layout to the fractal NZ layout."""

    name = "hivm.hir.nd2nz"

    src = operand_def(MemRefType)
    dst = operand_def(MemRefType)
    pad_value = opt_operand_def()
    init_condition = opt_operand_def()
    dst_continuous = opt_prop_def(UnitAttr)
    init_out_buffer = opt_prop_def(BoolAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("init_out_buffer",)

    def __init__(self, src: SSAValue | Operation, dst: SSAValue | Operation, *, dst_continuous: bool = False):
        super().__init__(
            operands=[src, dst, [], []],
            properties={"dst_continuous": UnitAttr()} if dst_continuous else {},
        )

    def pipes(self) -> tuple[str, ...]:
        return ("MTE2",)

    def core_type(self) -> str:
        return "CUBE"

    def verify_(self) -> None:
        rule = "nd2nz moves gm -> cbuf"
        _verify_scope(self, self.src, "source", ("gm",), rule)
        _verify_scope(self, self.dst, "destination", ("cbuf",), rule)
        _verify_same_element_type(self, self.src, self.dst, "source and destination")
        init = self.init_out_buffer
        if init is not None and init.value.data and self.pad_value is None:
            raise VerifyException("init_out_buffer = true needs a pad_value")

    @classmethod
    def parse(cls, parser: Parser) -> Nd2NzOp:
        props, attrs = cls._parse_attr_dict(parser)
        src, dst = cls._parse_ins_outs(parser)
        operands: dict[str, SSAValue | None] = {"src": src, "dst": dst}
        if parser.parse_optional_keyword("init_out_buffer"):
            parser.parse_punctuation("=")
            props["init_out_buffer"] = _parse_bool(parser)
        for keyword in ("pad_value", "init_condition"):
            if parser.parse_optional_keyword(keyword):
                parser.parse_punctuation("=")
                operands[keyword] = _parse_value_with_type(parser)
        return cls._make(operands, props, attrs)

    def print(self, printer: Printer) -> None:
        self._print_attr_dict(printer)
        self._print_ins_outs(printer)
        if self.init_out_buffer is not None:
            printer.print_string(" init_out_buffer = ")
            printer.print_attribute(self.init_out_buffer)
        for name in ("pad_value", "init_condition"):
            if (value := getattr(self, name)) is not None:
                printer.print_string(f" {name} = ")
                _print_value_with_type(printer, value)


@irdl_op_definition
class FixpipeOp(_DmaOp):
    """cc -> gm | cbuf | ub on PIPE_FIX, with optional layout change, quantisation, ReLU.

    `dual_dst_mode = <ROW_SPLIT>` splits the rows between the two vector cores' ub (950).
    """

    name = "hivm.hir.fixpipe"

    src = operand_def(MemRefType)
    dst = operand_def(MemRefType)
    unit_flag_cond = var_operand_def(IntegerType)
    quant_scale = opt_operand_def()

    dma_mode = prop_def(FixpipeDMAModeAttr, default_value=FixpipeDMAModeAttr(FixpipeDMAMode.NZ2NZ))
    dual_dst_mode = opt_prop_def(FixpipeDualDstModeAttr)
    pre_quant = opt_prop_def(FixpipePreQuantModeAttr)
    pre_relu = opt_prop_def(FixpipePreReluModeAttr)
    channel_split = opt_prop_def(BoolAttr)
    unit_flag_mode = opt_prop_def(ArrayAttr[UnitFlagAttr])

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("dual_dst_mode", "unit_flag_mode")

    ELIDED_DEFAULTS: ClassVar[dict[str, Attribute]] = {
        "dual_dst_mode": FixpipeDualDstModeAttr(FixpipeDualDstMode.NO_DUAL),
        "pre_quant": FixpipePreQuantModeAttr(FixpipePreQuantMode.NO_QUANT),
        "pre_relu": FixpipePreReluModeAttr(FixpipePreReluMode.NO_RELU),
        "channel_split": IntegerAttr.from_bool(False),
    }

    def __init__(
        self,
        src: SSAValue | Operation,
        dst: SSAValue | Operation,
        *,
        dma_mode: FixpipeDMAMode = FixpipeDMAMode.NZ2NZ,
        dual_dst_mode: FixpipeDualDstMode | None = None,
        pre_quant: FixpipePreQuantMode | None = None,
        pre_relu: FixpipePreReluMode | None = None,
    ):
        props: dict[str, Attribute] = {"dma_mode": FixpipeDMAModeAttr(dma_mode)}
        if dual_dst_mode is not None:
            props["dual_dst_mode"] = FixpipeDualDstModeAttr(dual_dst_mode)
        if pre_quant is not None:
            props["pre_quant"] = FixpipePreQuantModeAttr(pre_quant)
        if pre_relu is not None:
            props["pre_relu"] = FixpipePreReluModeAttr(pre_relu)
        super().__init__(operands=[src, dst, [], []], properties=props)

    def pipes(self) -> tuple[str, ...]:
        return ("FIX",)

    def core_type(self) -> str:
        return "CUBE"

    def verify_(self) -> None:
        rule = "fixpipe moves cc -> gm, cbuf or ub"
        _verify_scope(self, self.src, "source", ("cc",), rule)
        _verify_scope(self, self.dst, "destination", ("gm", "cbuf", "ub"), rule)
        has_950_paths, target = _has_950_paths(self)
        if scope_of(self.dst) == "ub" and not has_950_paths:
            raise VerifyException(f"fixpipe cc -> ub needs an Ascend 950 target, the module targets {target}")
        dual = self.dual_dst_mode
        if dual is not None and dual.data != FixpipeDualDstMode.NO_DUAL:
            if scope_of(self.dst) != "ub":
                raise VerifyException(
                    f"dual_dst_mode needs a ub destination (the two vector cores' ub), got {_scope_text(self.dst)}"
                )
            if self.dma_mode.data == FixpipeDMAMode.NZ2DN:
                raise VerifyException("dual_dst_mode needs dma_mode nz2nd or normal")
            src_shape, dst_shape = _shape(self.src), _shape(self.dst)
            if src_shape and dst_shape and len(src_shape) == 2 == len(dst_shape):
                axis = 0 if dual.data == FixpipeDualDstMode.ROW_SPLIT else 1
                expected = list(src_shape)
                expected[axis] = src_shape[axis] // 2
                if src_shape[axis] % 2 or list(dst_shape) != expected:
                    raise VerifyException(
                        f"dual_dst_mode {dual.data.value} needs a destination of "
                        f"{'x'.join(map(str, expected))} (half of the source), got {'x'.join(map(str, dst_shape))}"
                    )

    @classmethod
    def parse(cls, parser: Parser) -> FixpipeOp:
        props, attrs = cls._parse_attr_dict(parser)
        # bishengir still accepts the older unit attribute spelling.
        if "enable_nz2nd" in attrs:
            del attrs["enable_nz2nd"]
            props["dma_mode"] = FixpipeDMAModeAttr(FixpipeDMAMode.NZ2ND)
        src, dst = cls._parse_ins_outs(parser)
        operands: dict[str, SSAValue | Sequence[SSAValue] | None] = {"src": src, "dst": dst}
        if parser.parse_optional_keyword("dual_dst_mode"):
            parser.parse_punctuation("=")
            props["dual_dst_mode"] = _parse_enum(parser, FixpipeDualDstModeAttr)
        _parse_unit_flags(parser, props, operands)
        return cls._make(operands, props, attrs)

    def print(self, printer: Printer) -> None:
        self._print_attr_dict(printer)
        self._print_ins_outs(printer)
        # Printed whenever present, even at its default (bishengir does the same).
        if self.dual_dst_mode is not None:
            printer.print_string(" dual_dst_mode = ")
            _print_short(printer, self.dual_dst_mode)
        _print_unit_flags(printer, self.unit_flag_mode, self.unit_flag_cond)


# ---------------------------------------------------------------------------
# Cube
# ---------------------------------------------------------------------------

# The event-id/flag arguments bishengir's inject-sync gives an mmadL1 (its own count).
MMAD_SYNC_RELATED_ARGS = 7


def _mmad_accumulator(a: Attribute, b: Attribute) -> Attribute | None:
    from xdsl.dialects.builtin import f32, i32

    if type(a) is type(b) and isinstance(a, (Float16Type, BFloat16Type, Float32Type)):
        return f32
    if isinstance(a, IntegerType) and isinstance(b, IntegerType) and a.width.data == 8 == b.width.data:
        return i32
    return None


@irdl_op_definition
class MmadL1Op(_HivmOp):
    """C (cc) = init ? A x B : C + A x B, A and B in cbuf; L1 -> L0A/L0B moves (MTE1) are implied."""

    name = "hivm.hir.mmadL1"

    a = operand_def(MemRefType)
    b = operand_def(MemRefType)
    init_condition = operand_def(IntegerType)
    real_m = operand_def(IndexType)
    real_k = operand_def(IndexType)
    real_n = operand_def(IndexType)
    c = operand_def(MemRefType)
    sync_related_args = var_operand_def(I64)
    unit_flag_cond = var_operand_def(IntegerType)
    per_channel_bias = opt_operand_def(MemRefType)

    a_transpose = opt_prop_def(UnitAttr)
    b_transpose = opt_prop_def(UnitAttr)
    enable_HF32 = opt_prop_def(UnitAttr)
    enable_I4 = opt_prop_def(UnitAttr)
    unit_flag_mode = opt_prop_def(ArrayAttr[UnitFlagAttr])

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("unit_flag_mode",)

    def __init__(
        self,
        a: SSAValue | Operation,
        b: SSAValue | Operation,
        init_condition: SSAValue | Operation,
        real_m: SSAValue | Operation,
        real_k: SSAValue | Operation,
        real_n: SSAValue | Operation,
        c: SSAValue | Operation,
        *,
        a_transpose: bool = False,
        b_transpose: bool = False,
        enable_hf32: bool = False,
    ):
        props: dict[str, Attribute] = {}
        if a_transpose:
            props["a_transpose"] = UnitAttr()
        if b_transpose:
            props["b_transpose"] = UnitAttr()
        if enable_hf32:
            props["enable_HF32"] = UnitAttr()
        super().__init__(
            operands=[a, b, init_condition, real_m, real_k, real_n, c, [], [], []],
            properties=props,
        )

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        return (self.a, self.b, self.init_condition, self.real_m, self.real_k, self.real_n)

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return (self.c,)

    def pipes(self) -> tuple[str, ...]:
        return ("MTE1", "M")

    def core_type(self) -> str:
        return "CUBE"

    def init_is_constant(self) -> bool | None:
        """True/False when the init condition is a constant, None when it is computed."""
        value = _constant_int(self.init_condition)
        return None if value is None else bool(value)

    def memref_reads(self) -> tuple[SSAValue, ...]:
        reads = [self.a, self.b]
        if self.per_channel_bias is not None:
            reads.append(self.per_channel_bias)
        if self.init_is_constant() is not True:
            reads.append(self.c)  # accumulates into C unless it is (re)initialised
        return tuple(reads)

    def memref_writes(self) -> tuple[SSAValue, ...]:
        return (self.c,)

    def verify_(self) -> None:
        rule = "mmadL1 reads A and B from cbuf and accumulates C in cc"
        _verify_scope(self, self.a, "operand A", ("cbuf",), rule)
        _verify_scope(self, self.b, "operand B", ("cbuf",), rule)
        _verify_scope(self, self.c, "operand C", ("cc",), rule)
        if self.init_condition.type != IntegerType(1):
            raise VerifyException(f"init condition must be i1, got {self.init_condition.type}")
        shapes = [_shape(v) for v in (self.a, self.b, self.c)]
        for label, shape in zip("ABC", shapes):
            if shape is None or len(shape) != 2:
                raise VerifyException(f"operand {label} must be a rank-2 memref")
        a_shape, b_shape, c_shape = cast(list[tuple[int, int]], shapes)
        m, ka = (a_shape[1], a_shape[0]) if self.a_transpose else a_shape
        kb, n = (b_shape[1], b_shape[0]) if self.b_transpose else b_shape
        dynamic = DYNAMIC_INDEX

        def clash(x: int, y: int) -> bool:
            return x != dynamic and y != dynamic and x != y

        if clash(ka, kb):
            raise VerifyException(
                f"K of A ({ka}) and K of B ({kb}) differ"
                f" (a_transpose={self.a_transpose is not None}, b_transpose={self.b_transpose is not None})"
            )
        if clash(m, c_shape[0]) or clash(n, c_shape[1]):
            raise VerifyException(
                f"C is {c_shape[0]}x{c_shape[1]} but A x B is {m}x{n}"
            )
        for label, value, bound in (("real_m", self.real_m, m), ("real_k", self.real_k, ka), ("real_n", self.real_n, n)):
            known = _constant_int(value)
            if known is not None and bound != dynamic and not 0 < known <= bound:
                raise VerifyException(f"{label} = {known} is outside 1..{bound}")
        ta, tb, tc = (_element_type(v) for v in (self.a, self.b, self.c))
        acc = _mmad_accumulator(ta, tb)
        if acc is None:
            raise VerifyException(
                f"unsupported element types {ta} x {tb} (f16/bf16/f32 x same -> f32, i8 x i8 -> i32)"
            )
        if tc != acc:
            raise VerifyException(f"{ta} x {tb} accumulates in {acc}, but C is {tc}")
        if self.enable_HF32 is not None and not isinstance(ta, Float32Type):
            raise VerifyException(f"enable_HF32 needs f32 operands, got {ta}")
        if len(self.sync_related_args) not in (0, MMAD_SYNC_RELATED_ARGS):
            raise VerifyException(
                f"sync_related_args must be empty or {MMAD_SYNC_RELATED_ARGS} i64 values, got {len(self.sync_related_args)}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> MmadL1Op:
        props, attrs = cls._parse_attr_dict(parser)
        parser.parse_keyword("ins")
        parser.parse_punctuation("(")
        unresolved = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_unresolved_operand)
        parser.parse_punctuation(":")
        pos = parser.pos
        types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation(")")
        if len(unresolved) not in (6, 7) or len(types) != len(unresolved):
            parser.raise_error(
                "expected ins(%a, %b, %init, %m, %k, %n[, %bias] : types...)", pos, parser.pos
            )
        values = [parser.resolve_operand(u, t) for u, t in zip(unresolved, types)]
        parser.parse_keyword("outs")
        parser.parse_punctuation("(")
        c = _parse_value_with_type(parser)
        parser.parse_punctuation(")")
        operands: dict[str, SSAValue | Sequence[SSAValue] | None] = dict(
            zip(("a", "b", "init_condition", "real_m", "real_k", "real_n"), values[:6])
        )
        operands["c"] = c
        if len(values) == 7:
            operands["per_channel_bias"] = values[6]
        if parser.parse_optional_keyword("sync_related_args"):
            operands["sync_related_args"] = _parse_values_with_types(parser)
        _parse_unit_flags(parser, props, operands)
        return cls._make(operands, props, attrs)

    def print(self, printer: Printer) -> None:
        self._print_attr_dict(printer)
        values = list(self.ins)
        if self.per_channel_bias is not None:
            values.append(self.per_channel_bias)
        printer.print_string(" ins")
        _print_values_with_types(printer, values)
        printer.print_string(" outs(")
        _print_value_with_type(printer, self.c)
        printer.print_string(")")
        if self.sync_related_args:
            printer.print_string(" sync_related_args")
            _print_values_with_types(printer, self.sync_related_args)
        _print_unit_flags(printer, self.unit_flag_mode, self.unit_flag_cond)


# ---------------------------------------------------------------------------
# Vector ops
# ---------------------------------------------------------------------------


class _VectorOp(_HivmOp, ABC):
    def pipes(self) -> tuple[str, ...]:
        return ("V",)

    def core_type(self) -> str:
        return "VECTOR"

    def _verify_ub_operands(self) -> None:
        for role, values in (("input", self.ins), ("output", self.outs)):
            for value in values:
                if _is_memref(value) and scope_of(value) != "ub" and not scope_unassigned(value):
                    raise VerifyException(
                        f"vector {role} must be in ub, got {_scope_text(value)} (vector ops work on the unified buffer)"
                    )


class _ElementwiseOp(_VectorOp, ABC):
    """`attr-dict ins(...) outs(...) [temp_buffer(...)] <extra> [broadcast = [..]] [transpose = [..]]`."""

    src = var_operand_def()
    dst = var_operand_def(MemRefType)
    temp_buffer = opt_operand_def(MemRefType)
    transpose = prop_def(DenseArrayBase, default_value=_i64_array([]))
    broadcast = prop_def(DenseArrayBase, default_value=_i64_array([]))

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("transpose", "broadcast")
    ARITY: ClassVar[int] = 1
    # Extra enum properties printed as `name = <X>` after temp_buffer (vcast).
    EXTRA_ENUMS: ClassVar[tuple[tuple[str, type[Attribute]], ...]] = ()

    def __init__(
        self,
        ins: Sequence[SSAValue | Operation],
        outs: Sequence[SSAValue | Operation],
        *,
        broadcast: Sequence[int] = (),
        transpose: Sequence[int] = (),
        properties: dict[str, Attribute] | None = None,
    ):
        props: dict[str, Attribute] = {
            "broadcast": _i64_array(broadcast),
            "transpose": _i64_array(transpose),
        }
        props.update(properties or {})
        super().__init__(operands=[list(ins), list(outs), []], properties=props)

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        return tuple(self.src)

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return tuple(self.dst)

    def verify_(self) -> None:
        if len(self.src) != self.ARITY or len(self.dst) != 1:
            raise VerifyException(
                f"expects {self.ARITY} input(s) and 1 output, got {len(self.src)} and {len(self.dst)}"
            )
        self._verify_ub_operands()
        first = self.src[0]
        if not _is_memref(first):
            raise VerifyException(f"the first input must be a memref (vector operand), got {first.type}")
        if self.temp_buffer is not None and scope_of(self.temp_buffer) != "ub" and not scope_unassigned(self.temp_buffer):
            raise VerifyException(f"temp_buffer must be in ub, got {_scope_text(self.temp_buffer)}")
        dst = self.dst[0]
        broadcast = _array_values(self.broadcast)
        transpose = _array_values(self.transpose)
        if broadcast and transpose:
            raise VerifyException("broadcast and transpose cannot both be set")
        dst_shape = _shape(dst)
        assert dst_shape is not None
        rank = len(dst_shape)
        for dim in broadcast + transpose:
            if not 0 <= dim < rank:
                raise VerifyException(f"dimension {dim} is out of range for rank {rank}")
        if transpose and sorted(transpose) != list(range(rank)):
            raise VerifyException(f"transpose {list(transpose)} is not a permutation of 0..{rank - 1}")
        if transpose and transpose[-1] != rank - 1:
            raise VerifyException(f"transpose {list(transpose)} moves the last dimension (the hardware keeps it in place)")
        # out.shape[i] == in.shape[transpose[i]]: the input shape the output implies
        expected = list(dst_shape)
        for out_axis, in_axis in enumerate(transpose):
            expected[in_axis] = dst_shape[out_axis]
        for index, value in enumerate(self.src):
            if not _is_memref(value):
                if index == 0:
                    continue
                if value.type != _element_type(dst) and not self._may_cast():
                    raise VerifyException(
                        f"scalar operand type {value.type} differs from the element type {_element_type(dst)}"
                    )
                continue
            shape = _shape(value)
            assert shape is not None
            if len(shape) != rank:
                raise VerifyException(f"operand ranks differ ({len(shape)} vs {rank})")
            for axis, (got, want) in enumerate(zip(shape, expected)):
                if got == want or DYNAMIC_INDEX in (got, want):
                    continue
                if axis in broadcast and got == 1:
                    continue
                raise VerifyException(
                    f"operand shape {'x'.join(map(str, shape))} is not compatible with the output "
                    f"shape {'x'.join(map(str, dst_shape))} (same shape, a scalar, or size 1 on a broadcast dim)"
                )
            if not self._may_cast() and _element_type(value) != _element_type(dst):
                raise VerifyException(
                    f"element types differ ({_element_type(value)} vs {_element_type(dst)})"
                )

    def _may_cast(self) -> bool:
        return False

    @classmethod
    def parse(cls, parser: Parser):
        props, attrs = cls._parse_attr_dict(parser)
        operands: dict[str, SSAValue | Sequence[SSAValue] | None] = {}
        if parser.parse_optional_keyword("ins"):
            operands["src"] = _parse_values_with_types(parser)
        if parser.parse_optional_keyword("outs"):
            operands["dst"] = _parse_values_with_types(parser)
        if parser.parse_optional_keyword("temp_buffer"):
            parser.parse_punctuation("(")
            operands["temp_buffer"] = _parse_value_with_type(parser)
            parser.parse_punctuation(")")
        for name, attr_type in cls.EXTRA_ENUMS:
            if parser.parse_optional_keyword(name):
                parser.parse_punctuation("=")
                props[name] = _parse_enum(parser, attr_type)
        for name in ("broadcast", "transpose"):
            if parser.parse_optional_keyword(name):
                parser.parse_punctuation("=")
                props[name] = _parse_int_list(parser)
        return cls._make(operands, props, attrs)

    def print(self, printer: Printer) -> None:
        self._print_attr_dict(printer)
        if self.src:
            printer.print_string(" ins")
            _print_values_with_types(printer, self.src)
        if self.dst:
            printer.print_string(" outs")
            _print_values_with_types(printer, self.dst)
        if self.temp_buffer is not None:
            printer.print_string(" temp_buffer(")
            _print_value_with_type(printer, self.temp_buffer)
            printer.print_string(")")
        for name, _ in self.EXTRA_ENUMS:
            if (value := self._format_prop(name)) is not None:
                printer.print_string(f" {name} = ")
                _print_short(printer, value)
        for name in ("broadcast", "transpose"):
            value = self.properties.get(name)
            if isinstance(value, DenseArrayBase) and _array_values(value):
                printer.print_string(f" {name} = ")
                _print_int_list(printer, value)


class _BinaryOp(_ElementwiseOp, ABC):
    ARITY: ClassVar[int] = 2

    def __init__(
        self,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        dst: SSAValue | Operation,
        *,
        broadcast: Sequence[int] = (),
    ):
        super().__init__([lhs, rhs], [dst], broadcast=broadcast)


class _UnaryOp(_ElementwiseOp, ABC):
    ARITY: ClassVar[int] = 1

    def __init__(self, src: SSAValue | Operation, dst: SSAValue | Operation, *, broadcast: Sequence[int] = ()):
        super().__init__([src], [dst], broadcast=broadcast)


@irdl_op_definition
class VAddOp(_BinaryOp):
    name = "hivm.hir.vadd"


@irdl_op_definition
class VSubOp(_BinaryOp):
    name = "hivm.hir.vsub"


@irdl_op_definition
class VMulOp(_BinaryOp):
    name = "hivm.hir.vmul"


@irdl_op_definition
class VDivOp(_BinaryOp):
    name = "hivm.hir.vdiv"


@irdl_op_definition
class VMaxOp(_BinaryOp):
    name = "hivm.hir.vmax"


@irdl_op_definition
class VMinOp(_BinaryOp):
    name = "hivm.hir.vmin"


@irdl_op_definition
class VExpOp(_UnaryOp):
    name = "hivm.hir.vexp"


@irdl_op_definition
class VLnOp(_UnaryOp):
    name = "hivm.hir.vln"


@irdl_op_definition
class VAbsOp(_UnaryOp):
    name = "hivm.hir.vabs"


@irdl_op_definition
class VReluOp(_UnaryOp):
    name = "hivm.hir.vrelu"


@irdl_op_definition
class VSqrtOp(_UnaryOp):
    name = "hivm.hir.vsqrt"


@irdl_op_definition
class VRsqrtOp(_UnaryOp):
    name = "hivm.hir.vrsqrt"


@irdl_op_definition
class VRecOp(_UnaryOp):
    name = "hivm.hir.vrec"


@irdl_op_definition
class VCastOp(_ElementwiseOp):
    """Element type conversion; `round_mode` (default rint) and `cast` (default cast_signed)."""

    name = "hivm.hir.vcast"

    src = var_operand_def()
    dst = var_operand_def(MemRefType)
    temp_buffer = opt_operand_def(MemRefType)
    transpose = prop_def(DenseArrayBase, default_value=_i64_array([]))
    broadcast = prop_def(DenseArrayBase, default_value=_i64_array([]))
    round_mode = prop_def(RoundModeAttr, default_value=RoundModeAttr(RoundMode.RINT))
    cast = prop_def(TypeFnAttr, default_value=TypeFnAttr(TypeFn.cast_signed))

    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("transpose", "broadcast", "round_mode", "cast")
    EXTRA_ENUMS: ClassVar[tuple[tuple[str, type[Attribute]], ...]] = (("round_mode", RoundModeAttr), ("cast", TypeFnAttr))
    ARITY: ClassVar[int] = 1

    def __init__(
        self,
        src: SSAValue | Operation,
        dst: SSAValue | Operation,
        *,
        round_mode: RoundMode = RoundMode.RINT,
        cast: TypeFn = TypeFn.cast_signed,
    ):
        super().__init__(
            [src],
            [dst],
            properties={"round_mode": RoundModeAttr(round_mode), "cast": TypeFnAttr(cast)},
        )

    def _may_cast(self) -> bool:
        return True


@irdl_op_definition
class VBrcOp(_VectorOp):
    """Broadcast a scalar, or a memref with size-1 `broadcast_dims`, to the output shape."""

    name = "hivm.hir.vbrc"

    src = operand_def()
    dst = operand_def(MemRefType)
    temp_buffer = opt_operand_def(MemRefType)
    broadcast_dims = prop_def(DenseArrayBase, default_value=_i64_array([]))

    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("broadcast_dims",)

    def __init__(self, src: SSAValue | Operation, dst: SSAValue | Operation, *, broadcast_dims: Sequence[int] = ()):
        super().__init__(operands=[src, dst, []], properties={"broadcast_dims": _i64_array(broadcast_dims)})

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        return (self.src,)

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return (self.dst,)

    def verify_(self) -> None:
        self._verify_ub_operands()
        dims = _array_values(self.broadcast_dims)
        dst_shape = _shape(self.dst)
        assert dst_shape is not None
        rank = len(dst_shape)
        if len(set(dims)) != len(dims):
            raise VerifyException(f"broadcast_dims {list(dims)} has duplicates")
        for dim in dims:
            if not 0 <= dim < rank:
                raise VerifyException(f"broadcast dim {dim} is out of range for rank {rank}")
        if not _is_memref(self.src):
            if dims:
                raise VerifyException("a scalar source takes no broadcast_dims")
            if self.src.type != _element_type(self.dst):
                raise VerifyException(
                    f"scalar type {self.src.type} differs from the element type {_element_type(self.dst)}"
                )
            return
        _verify_same_element_type(self, self.src, self.dst, "source and destination")
        src_shape = _shape(self.src)
        assert src_shape is not None
        if len(src_shape) != rank:
            raise VerifyException(f"source rank {len(src_shape)} differs from destination rank {rank}")
        if not dims:
            raise VerifyException("a memref source needs broadcast_dims")
        for axis, (got, want) in enumerate(zip(src_shape, dst_shape)):
            if axis in dims:
                if got != 1:
                    raise VerifyException(f"source size on broadcast dim {axis} must be 1, got {got}")
            elif got != want and DYNAMIC_INDEX not in (got, want):
                raise VerifyException(
                    f"source size {got} differs from destination size {want} on dim {axis}"
                )

    @classmethod
    def parse(cls, parser: Parser) -> VBrcOp:
        props, attrs = cls._parse_attr_dict(parser)
        parser.parse_keyword("ins")
        parser.parse_punctuation("(")
        src = _parse_value_with_type(parser)
        parser.parse_punctuation(")")
        parser.parse_keyword("outs")
        parser.parse_punctuation("(")
        dst = _parse_value_with_type(parser)
        parser.parse_punctuation(")")
        operands: dict[str, SSAValue | None] = {"src": src, "dst": dst}
        if parser.parse_optional_keyword("temp_buffer"):
            parser.parse_punctuation("(")
            operands["temp_buffer"] = _parse_value_with_type(parser)
            parser.parse_punctuation(")")
        if parser.parse_optional_keyword("broadcast_dims"):
            parser.parse_punctuation("=")
            props["broadcast_dims"] = _parse_int_list(parser)
        return cls._make(operands, props, attrs)

    def print(self, printer: Printer) -> None:
        self._print_attr_dict(printer)
        printer.print_string(" ins(")
        _print_value_with_type(printer, self.src)
        printer.print_string(") outs(")
        _print_value_with_type(printer, self.dst)
        printer.print_string(")")
        if self.temp_buffer is not None:
            printer.print_string(" temp_buffer(")
            _print_value_with_type(printer, self.temp_buffer)
            printer.print_string(")")
        if _array_values(self.broadcast_dims):
            printer.print_string(" broadcast_dims = ")
            _print_int_list(printer, self.broadcast_dims)


@irdl_op_definition
class VReduceOp(_VectorOp):
    """`vreduce <sum|max|min|prod...> ins(%s) outs(%d) reduce_dims = [..]` (reduced dims keep size 1)."""

    name = "hivm.hir.vreduce"

    src = operand_def(MemRefType)
    dst = var_operand_def(MemRefType)
    temp_buffer = opt_operand_def(MemRefType)
    indices = opt_operand_def(MemRefType)
    arith = prop_def(ReduceOpAttr)
    reduce_dims = prop_def(DenseArrayBase)
    # Required by the Ascend 950 (`-a5`) build of bishengir, unknown to the default one.
    unsigned_src = opt_prop_def(BoolAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("arith", "reduce_dims", "unsigned_src")

    def __init__(
        self,
        kind: ReduceOpKind,
        src: SSAValue | Operation,
        dst: SSAValue | Operation,
        reduce_dims: Sequence[int],
    ):
        super().__init__(
            operands=[src, [dst], [], []],
            properties={"arith": ReduceOpAttr(kind), "reduce_dims": _i64_array(reduce_dims)},
        )

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        return (self.src,)

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return tuple(self.dst) + ((self.indices,) if self.indices is not None else ())

    def verify_(self) -> None:
        self._verify_ub_operands()
        with_index = self.arith.data.value.endswith(("_with_index_left", "_with_index_right"))
        if len(self.dst) != (2 if with_index else 1):
            raise VerifyException(
                f"<{self.arith.data.value}> expects {2 if with_index else 1} output(s)"
                f"{' (values and indices)' if with_index else ''}, got {len(self.dst)}"
            )
        dst = self.dst[0]
        _verify_same_element_type(self, self.src, dst, "source and destination")
        if with_index and not isinstance(_element_type(self.dst[1]), IntegerType):
            raise VerifyException(f"the index output must have an integer element type, got {_element_type(self.dst[1])}")
        src_shape = _shape(self.src)
        assert src_shape is not None
        rank = len(src_shape)
        dims = _array_values(self.reduce_dims)
        if not dims:
            raise VerifyException("reduce_dims must not be empty")
        if len(set(dims)) != len(dims):
            raise VerifyException(f"reduce_dims {list(dims)} has duplicates")
        for dim in dims:
            if not 0 <= dim < rank:
                raise VerifyException(f"reduce dim {dim} is out of range for rank {rank}")
        for out in self.dst:
            dst_shape = _shape(out)
            assert dst_shape is not None
            if len(dst_shape) != rank:
                raise VerifyException(f"destination rank {len(dst_shape)} differs from source rank {rank}")
            for axis, (got, full) in enumerate(zip(dst_shape, src_shape)):
                want = 1 if axis in dims else full
                if got != want and DYNAMIC_INDEX not in (got, want):
                    raise VerifyException(f"destination size on dim {axis} must be {want}, got {got}")

    @classmethod
    def parse(cls, parser: Parser) -> VReduceOp:
        props, attrs = cls._parse_attr_dict(parser)
        props["arith"] = _parse_enum(parser, ReduceOpAttr)
        parser.parse_keyword("ins")
        parser.parse_punctuation("(")
        src = _parse_value_with_type(parser)
        parser.parse_punctuation(")")
        operands: dict[str, SSAValue | Sequence[SSAValue] | None] = {"src": src}
        if parser.parse_optional_keyword("indices"):
            parser.parse_punctuation("(")
            operands["indices"] = _parse_value_with_type(parser)
            parser.parse_punctuation(")")
        parser.parse_keyword("outs")
        operands["dst"] = _parse_values_with_types(parser)
        if parser.parse_optional_keyword("temp_buffer"):
            parser.parse_punctuation("(")
            operands["temp_buffer"] = _parse_value_with_type(parser)
            parser.parse_punctuation(")")
        if parser.parse_optional_keyword("unsigned_src"):
            parser.parse_punctuation("=")
            props["unsigned_src"] = _parse_bool(parser)
        parser.parse_keyword("reduce_dims")
        parser.parse_punctuation("=")
        props["reduce_dims"] = _parse_int_list(parser)
        return cls._make(operands, props, attrs)

    def print(self, printer: Printer) -> None:
        self._print_attr_dict(printer)
        printer.print_string(" ")
        _print_short(printer, self.arith)
        printer.print_string(" ins(")
        _print_value_with_type(printer, self.src)
        printer.print_string(")")
        if self.indices is not None:
            printer.print_string(" indices(")
            _print_value_with_type(printer, self.indices)
            printer.print_string(")")
        printer.print_string(" outs")
        _print_values_with_types(printer, self.dst)
        if self.temp_buffer is not None:
            printer.print_string(" temp_buffer(")
            _print_value_with_type(printer, self.temp_buffer)
            printer.print_string(")")
        if self.unsigned_src is not None:
            printer.print_string(" unsigned_src = ")
            printer.print_attribute(self.unsigned_src)
        printer.print_string(" reduce_dims = ")
        _print_int_list(printer, self.reduce_dims)


# ---------------------------------------------------------------------------
# Synchronisation
# ---------------------------------------------------------------------------

EVENTS_PER_PIPE_PAIR = 8


class _FlagOp(_HivmOp, ABC):
    """`[<set pipe>, <wait pipe>, <EVENT_IDn> | %dynamic] attr-dict`."""

    dynamic_event_id = opt_operand_def(I64)
    set_pipe = prop_def(PipeAttr)
    wait_pipe = prop_def(PipeAttr)
    static_event_id = opt_prop_def(EventAttr)

    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("set_pipe", "wait_pipe", "static_event_id")

    def __init__(self, set_pipe: str | PipeAttr, wait_pipe: str | PipeAttr, event: int | SSAValue | Operation):
        props: dict[str, Attribute] = {
            "set_pipe": set_pipe if isinstance(set_pipe, PipeAttr) else pipe_attr(set_pipe),
            "wait_pipe": wait_pipe if isinstance(wait_pipe, PipeAttr) else pipe_attr(wait_pipe),
        }
        operands: list[SSAValue | Operation | list[SSAValue]] = [[]]
        if isinstance(event, int):
            props["static_event_id"] = EventAttr(event)
        else:
            operands = [event]
        super().__init__(operands=operands, properties=props)

    @property
    def event_id(self) -> int | None:
        """The static event id, None when the id is dynamic."""
        return self.static_event_id.index if self.static_event_id is not None else None

    def verify_(self) -> None:
        if (self.static_event_id is None) == (self.dynamic_event_id is None):
            raise VerifyException("needs exactly one of a static event id or a dynamic i64 event id")
        if self.set_pipe == self.wait_pipe:
            raise VerifyException(
                f"set and wait pipes must differ, got {self.set_pipe.data.value} twice (same-pipe order needs pipe_barrier, not a flag)"
            )
        for role, pipe in (("set", self.set_pipe), ("wait", self.wait_pipe)):
            if pipe.pipe_name not in PIPE_NAMES:
                raise VerifyException(f"{role} pipe must be a single hardware pipe, got {pipe.data.value}")
        if self.static_event_id is not None and not 0 <= self.static_event_id.index < EVENTS_PER_PIPE_PAIR:
            raise VerifyException(
                f"static event id EVENT_ID{self.static_event_id.index} is out of range "
                f"(EVENT_ID0..EVENT_ID{EVENTS_PER_PIPE_PAIR - 1}, {EVENTS_PER_PIPE_PAIR} per pipe pair)"
            )

    @classmethod
    def parse(cls, parser: Parser):
        parser.parse_punctuation("[")
        props: dict[str, Attribute] = {"set_pipe": _parse_enum(parser, PipeAttr)}
        parser.parse_punctuation(",")
        props["wait_pipe"] = _parse_enum(parser, PipeAttr)
        parser.parse_punctuation(",")
        operands: dict[str, SSAValue | None] = {}
        dynamic = parser.parse_optional_unresolved_operand()
        if dynamic is not None:
            operands["dynamic_event_id"] = parser.resolve_operand(dynamic, i64)
        else:
            props["static_event_id"] = _parse_enum(parser, EventAttr)
        parser.parse_punctuation("]")
        extra_props, attrs = cls._parse_attr_dict(parser)
        return cls._make(operands, extra_props | props, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string("[")
        _print_short(printer, self.set_pipe)
        printer.print_string(", ")
        _print_short(printer, self.wait_pipe)
        printer.print_string(", ")
        if self.dynamic_event_id is not None:
            printer.print_operand(self.dynamic_event_id)
        elif self.static_event_id is not None:
            _print_short(printer, self.static_event_id)
        printer.print_string("]")
        self._print_attr_dict(printer)


@irdl_op_definition
class SetFlagOp(_FlagOp):
    """Runs on the producer (set) pipe once its earlier ops completed; raises the flag."""

    name = "hivm.hir.set_flag"

    def pipes(self) -> tuple[str, ...]:
        return (self.set_pipe.pipe_name,)

    def core_type(self) -> str:
        return _core_of_pipes((self.set_pipe.pipe_name, self.wait_pipe.pipe_name))


@irdl_op_definition
class WaitFlagOp(_FlagOp):
    """Blocks the consumer (wait) pipe until the flag is raised, then clears it."""

    name = "hivm.hir.wait_flag"

    def pipes(self) -> tuple[str, ...]:
        return (self.wait_pipe.pipe_name,)

    def core_type(self) -> str:
        return _core_of_pipes((self.set_pipe.pipe_name, self.wait_pipe.pipe_name))


@irdl_op_definition
class PipeBarrierOp(_HivmOp):
    """`pipe_barrier[<PIPE_X>]`: orders ops of one pipe; PIPE_ALL drains every pipe."""

    name = "hivm.hir.pipe_barrier"

    pipe = prop_def(PipeAttr)
    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("pipe",)

    def __init__(self, pipe: str | PipeAttr):
        super().__init__(properties={"pipe": pipe if isinstance(pipe, PipeAttr) else pipe_attr(pipe)})

    def pipes(self) -> tuple[str, ...]:
        name = self.pipe.pipe_name
        return PIPE_NAMES if name == "ALL" else (name,)

    def core_type(self) -> str:
        if self.pipe.pipe_name == "ALL":
            return "SCALAR"
        return _core_of_pipes(self.pipes())

    def verify_(self) -> None:
        name = self.pipe.pipe_name
        if name != "ALL" and name not in PIPE_NAMES:
            raise VerifyException(f"pipe must be a hardware pipe or PIPE_ALL, got {self.pipe.data.value}")

    @classmethod
    def parse(cls, parser: Parser) -> PipeBarrierOp:
        parser.parse_punctuation("[")
        pipe = _parse_enum(parser, PipeAttr)
        parser.parse_punctuation("]")
        props, attrs = cls._parse_attr_dict(parser)
        return cls._make({}, props | {"pipe": pipe}, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string("[")
        _print_short(printer, self.pipe)
        printer.print_string("]")
        self._print_attr_dict(printer)


# Cross-core flag ids (FFTS): 16 per block.
CROSS_CORE_FLAGS = hardware.CROSS_CORE_FLAGS


class _SyncBlockOp(_HivmOp, ABC):
    """`attr-dict [<core>, <set pipe>, <wait pipe>] flag = N | %v ...`: cross-core flags.

    `tcore_type` is the core the op runs on, `tpipe` the producer pipe (on the setting
    core) and `pipe` the consumer pipe (on the waiting core); a set/wait pair carries
    the same two pipes.
    """

    tcore_type = prop_def(TCoreTypeAttr)
    tpipe = prop_def(PipeAttr)
    pipe = prop_def(PipeAttr)
    static_flag_id = opt_prop_def(IntegerAttr)

    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("tcore_type", "tpipe", "pipe", "static_flag_id", "tsync_instr_mode")
    # sync_block_set only: an `ffts_base_addr` operand and a `sync_instr_mode`.
    HAS_FFTS: ClassVar[bool] = False

    def __init__(self, core: str | TCoreTypeAttr, tpipe: str | PipeAttr, pipe: str | PipeAttr, flag: int | SSAValue | Operation):
        props: dict[str, Attribute] = {
            "tcore_type": core if isinstance(core, TCoreTypeAttr) else TCoreTypeAttr(TCoreType(core)),
            "tpipe": tpipe if isinstance(tpipe, PipeAttr) else pipe_attr(tpipe),
            "pipe": pipe if isinstance(pipe, PipeAttr) else pipe_attr(pipe),
        }
        dynamic: list[SSAValue | Operation] = []
        if isinstance(flag, int):
            props["static_flag_id"] = IntegerAttr(flag, i64)
        else:
            dynamic = [flag]
        operands: list[list[SSAValue | Operation]] = [dynamic, []] if self.HAS_FFTS else [dynamic]
        super().__init__(operands=operands, properties=props)

    @property
    def flag_id(self) -> int | None:
        return self.static_flag_id.value.data if self.static_flag_id is not None else None

    def core_type(self) -> str:
        return "CUBE" if self.tcore_type.data == TCoreType.CUBE else "VECTOR"

    def verify_(self) -> None:
        dynamic = cast(SSAValue | None, getattr(self, "dynamic_flag_id"))
        if (self.static_flag_id is None) == (dynamic is None):
            raise VerifyException("needs exactly one of a static flag id or a dynamic i64 flag id")
        if self.tcore_type.data not in (TCoreType.CUBE, TCoreType.VECTOR):
            raise VerifyException(f"core type must be CUBE or VECTOR, got {self.tcore_type.data.value}")
        for role, pipe in (("producer", self.tpipe), ("consumer", self.pipe)):
            if pipe.pipe_name not in PIPE_NAMES:
                raise VerifyException(f"{role} pipe must be a single hardware pipe, got {pipe.data.value}")
        flag = self.flag_id
        if flag is not None and not 0 <= flag < CROSS_CORE_FLAGS:
            raise VerifyException(f"flag id {flag} is out of range (0..{CROSS_CORE_FLAGS - 1})")

    @classmethod
    def parse(cls, parser: Parser):
        extra_props, attrs = cls._parse_attr_dict(parser)
        parser.parse_punctuation("[")
        props: dict[str, Attribute] = {"tcore_type": _parse_enum(parser, TCoreTypeAttr)}
        parser.parse_punctuation(",")
        props["tpipe"] = _parse_enum(parser, PipeAttr)
        parser.parse_punctuation(",")
        props["pipe"] = _parse_enum(parser, PipeAttr)
        parser.parse_punctuation("]")
        parser.parse_keyword("flag")
        parser.parse_punctuation("=")
        operands: dict[str, SSAValue | None] = {}
        dynamic = parser.parse_optional_unresolved_operand()
        if dynamic is not None:
            operands["dynamic_flag_id"] = parser.resolve_operand(dynamic, i64)
        else:
            props["static_flag_id"] = IntegerAttr(parser.parse_integer(allow_boolean=False), i64)
        if cls.HAS_FFTS and parser.parse_optional_keyword("ffts_base_addr"):
            parser.parse_punctuation("=")
            operands["ffts_base_addr"] = parser.resolve_operand(parser.parse_unresolved_operand(), i64)
        if cls.HAS_FFTS and parser.parse_optional_keyword("sync_instr_mode"):
            parser.parse_punctuation("=")
            props["tsync_instr_mode"] = _parse_enum(parser, SyncBlockInstrModeAttr)
        return cls._make(operands, extra_props | props, attrs)

    def print(self, printer: Printer) -> None:
        self._print_attr_dict(printer)
        printer.print_string("[")
        _print_short(printer, self.tcore_type)
        printer.print_string(", ")
        _print_short(printer, self.tpipe)
        printer.print_string(", ")
        _print_short(printer, self.pipe)
        printer.print_string("] flag = ")
        dynamic = cast(SSAValue | None, getattr(self, "dynamic_flag_id"))
        if dynamic is not None:
            printer.print_operand(dynamic)
        else:
            printer.print_string(str(self.flag_id))
        ffts = cast(SSAValue | None, getattr(self, "ffts_base_addr", None))
        if ffts is not None:
            printer.print_string(" ffts_base_addr = ")
            printer.print_operand(ffts)
        mode = self.properties.get("tsync_instr_mode")
        if mode is not None:
            printer.print_string(" sync_instr_mode = ")
            _print_short(printer, mode)


@irdl_op_definition
class SyncBlockSetOp(_SyncBlockOp):
    name = "hivm.hir.sync_block_set"

    dynamic_flag_id = opt_operand_def(I64)
    ffts_base_addr = opt_operand_def(I64)
    tsync_instr_mode = opt_prop_def(SyncBlockInstrModeAttr)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    HAS_FFTS: ClassVar[bool] = True

    def pipes(self) -> tuple[str, ...]:
        return (self.tpipe.pipe_name,)


@irdl_op_definition
class SyncBlockWaitOp(_SyncBlockOp):
    name = "hivm.hir.sync_block_wait"

    dynamic_flag_id = opt_operand_def(I64)

    def pipes(self) -> tuple[str, ...]:
        return (self.pipe.pipe_name,)


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
        if scope_of(self.result) not in ON_CHIP_SCOPES:
            raise VerifyException(
                f"result must be in an on-chip scope ({', '.join(ON_CHIP_SCOPES)}), got {_scope_text(self.result)}"
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
        if parser.parse_optional_punctuation("[") is not None:
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


class _BlockQueryOp(_HivmOp, ABC):
    """`%v = hivm.hir.get_block_idx -> i64`, a scalar-unit query."""

    result = result_def(I64)

    def __init__(self):
        super().__init__(result_types=[i64])

    def pipes(self) -> tuple[str, ...]:
        return ("S",)

    def core_type(self) -> str:
        return "SCALAR"

    @classmethod
    def parse(cls, parser: Parser):
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        op = cls.create(result_types=[result_type], attributes=attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class GetBlockIdxOp(_BlockQueryOp):
    name = "hivm.hir.get_block_idx"


@irdl_op_definition
class GetBlockNumOp(_BlockQueryOp):
    name = "hivm.hir.get_block_num"


@irdl_op_definition
class GetSubBlockIdxOp(_BlockQueryOp):
    name = "hivm.hir.get_sub_block_idx"


@irdl_op_definition
class SetFftsBaseAddrOp(_HivmOp):
    """`hivm.hir.set_ffts_base_addr %addr`: where the cross-core (FFTS) flags of
    sync_block_set/wait live; a MIX kernel sets it on entry from its first argument."""

    name = "hivm.hir.set_ffts_base_addr"

    ffts_base_addr = operand_def(I64)

    def __init__(self, ffts_base_addr: SSAValue | Operation):
        super().__init__(operands=[ffts_base_addr])

    def pipes(self) -> tuple[str, ...]:
        return ("S",)

    def core_type(self) -> str:
        return "SCALAR"

    @classmethod
    def parse(cls, parser: Parser) -> SetFftsBaseAddrOp:
        attrs = parser.parse_optional_attr_dict()
        addr = parser.resolve_operand(parser.parse_unresolved_operand(), i64)
        return cls.create(operands=[addr], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(" ")
        printer.print_operand(self.ffts_base_addr)


DMA_OPS: tuple[type[Operation], ...] = (LoadOp, StoreOp, Nd2NzOp, FixpipeOp, CopyOp)
BINARY_OPS: tuple[type[Operation], ...] = (VAddOp, VSubOp, VMulOp, VDivOp, VMaxOp, VMinOp)
UNARY_OPS: tuple[type[Operation], ...] = (VExpOp, VLnOp, VAbsOp, VReluOp, VSqrtOp, VRsqrtOp, VRecOp)
VECTOR_OPS: tuple[type[Operation], ...] = BINARY_OPS + UNARY_OPS + (VCastOp, VBrcOp, VReduceOp)
SYNC_OPS: tuple[type[Operation], ...] = (
    SetFlagOp,
    WaitFlagOp,
    PipeBarrierOp,
    SyncBlockSetOp,
    SyncBlockWaitOp,
    SetFftsBaseAddrOp,
)

HIVM = Dialect(
    "hivm",
    [
        *DMA_OPS,
        MmadL1Op,
        *VECTOR_OPS,
        *SYNC_OPS,
        PointerCastOp,
        GetBlockIdxOp,
        GetBlockNumOp,
        GetSubBlockIdxOp,
    ],
    [
        AddressSpaceAttr,
        PipeAttr,
        EventAttr,
        TCoreTypeAttr,
        FuncCoreTypeAttr,
        ModuleCoreTypeAttr,
        PartOfMixAttr,
        PadModeAttr,
        AtomicKindAttr,
        RoundModeAttr,
        TypeFnAttr,
        ReduceOpAttr,
        FixpipeDMAModeAttr,
        FixpipeDualDstModeAttr,
        FixpipePreQuantModeAttr,
        FixpipePreReluModeAttr,
        SyncBlockInstrModeAttr,
        UnitFlagAttr,
    ],
)
