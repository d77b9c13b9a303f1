"""hivm attributes: address spaces, pipes, events, core types and the op enums.

Each prints as `#hivm.<mnemonic><VALUE>`, the way MLIR prints an enum attribute with `<` params `>`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar, cast

from xdsl.dialects.builtin import DenseArrayBase, IntAttr, IntegerType, StringAttr, i64
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, Data, ParametrizedAttribute
from xdsl.irdl import (
    irdl_attr_definition,
    param_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum


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
        return parse_event_body(parser)


_EVENT_RE = re.compile(r"EVENT_ID(\d+)$")


def parse_event_body(parser: AttrParser) -> int:
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


class EvictionPolicy(StrEnum):
    """A load's cache hint (bishengir-opt-a5 prints it on triton-ascend's loads); no
    effect on values or on the order of accesses, so the simulator ignores it."""

    EvictNormal = "EvictNormal"
    EvictFirst = "EvictFirst"
    EvictLast = "EvictLast"


@irdl_attr_definition
class EvictionPolicyAttr(_AngleEnum, EnumAttribute[EvictionPolicy]):
    name = "hivm.eviction_policy"


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


def address_space(name: str) -> AddressSpaceAttr:
    """`address_space("ub")` -> `#hivm.address_space<ub>`."""
    try:
        return AddressSpaceAttr(AddressSpace(name))
    except ValueError:
        raise ValueError(f"unknown hivm address space {name!r}") from None



class CompareMode(StrEnum):
    EQ = "eq"
    NE = "ne"
    LT = "lt"
    GT = "gt"
    GE = "ge"
    LE = "le"


@irdl_attr_definition
class CompareModeAttr(_AngleEnum, EnumAttribute[CompareMode]):
    """vcmp's comparison (`#hivm.compare_mode<lt>`, default eq)."""

    name = "hivm.compare_mode"


class SyncBlockMode(StrEnum):
    ALL_CUBE = "ALL_CUBE"
    ALL_VECTOR = "ALL_VECTOR"
    ALL_SUB_VECTOR = "ALL_SUB_VECTOR"
    BARRIER_CUBE = "BARRIER_CUBE"
    BARRIER_VECTOR = "BARRIER_VECTOR"
    ALL = "ALL"


@irdl_attr_definition
class SyncBlockModeAttr(_AngleEnum, EnumAttribute[SyncBlockMode]):
    """Which cores a `hivm.hir.sync_block` barrier joins (`#hivm.sync_block_mode<ALL_CUBE>`)."""

    name = "hivm.sync_block_mode"


class VFMode(StrEnum):
    SIMD = "SIMD"
    SIMT = "SIMT"
    MIX = "MIX"


@irdl_attr_definition
class VFModeAttr(_AngleEnum, EnumAttribute[VFMode]):
    """How a function's vector code runs (`hivm.vf_mode = #hivm.vf_mode<SIMD>`, Ascend 950)."""

    name = "hivm.vf_mode"


# ---------------------------------------------------------------------------
# Attributes of the macro, custom and layout ops (bishengir-opt 1.2.0's spelling)
# ---------------------------------------------------------------------------


class DescaleMode(StrEnum):
    DescaleNull = "DescaleNull"
    DescalePerChannel = "DescalePerChannel"
    DescalePerTensor = "DescalePerTensor"


@irdl_attr_definition
class DescaleModeAttr(_AngleEnum, EnumAttribute[DescaleMode]):
    """How a global matmul dequantises its result (`#hivm.descale_mode<DescalePerChannel>`)."""

    name = "hivm.descale_mode"


class IteratorType(StrEnum):
    parallel = "parallel"
    broadcast = "broadcast"
    transpose = "transpose"
    reduction = "reduction"
    interleave = "interleave"
    deinterleave = "deinterleave"
    inverse = "inverse"
    pad = "pad"
    concat = "concat"
    gather = "gather"
    cumulative = "cumulative"
    opaque = "opaque"


@irdl_attr_definition
class IteratorTypeAttr(_AngleEnum, EnumAttribute[IteratorType]):
    """One loop of a custom op's iteration space (`#hivm.iterator_type<parallel>`)."""

    name = "hivm.iterator_type"


class DeinterleaveMode(StrEnum):
    CHANNEL_0 = "CHANNEL_0"
    CHANNEL_1 = "CHANNEL_1"
    ALL_CHANNELS = "ALL_CHANNELS"


@irdl_attr_definition
class DeinterleaveModeAttr(_AngleEnum, EnumAttribute[DeinterleaveMode]):
    """Which channels vdeinterleave writes (`#hivm.deinterleave_mode<ALL_CHANNELS>`)."""

    name = "hivm.deinterleave_mode"


class CacheModifier(StrEnum):
    none = "none"
    ca = "ca"
    cg = "cg"
    wb = "wb"
    cs = "cs"
    wt = "wt"
    cv = "cv"


@irdl_attr_definition
class CacheModifierAttr(_AngleEnum, EnumAttribute[CacheModifier]):
    """A gather/scatter access's cache hint (`#hivm.cache_modifier<none>`); no effect on values."""

    name = "hivm.cache_modifier"


class UnsignedMode(StrEnum):
    SI2SI = "si2si"
    SI2UI = "si2ui"
    UI2SI = "ui2si"
    UI2UI = "ui2ui"


@irdl_attr_definition
class UnsignedModeAttr(_AngleEnum, EnumAttribute[UnsignedMode]):
    """Whether a vcast reads and writes its integers as signed or unsigned
    (`#hivm.unsigned_mode<si2si>`, bishengir-opt-a5)."""

    name = "hivm.unsigned_mode"


class DataLayout(StrEnum):
    DOTA_ND = "dotA_ND"
    DOTB_ND = "dotB_ND"
    DOTC_ND = "dotC_ND"
    nZ = "nZ"
    zN = "zN"
    ND = "ND"
    Fractal = "Fractal"
    NCHW = "NCHW"
    NC1HWC0 = "NC1HWC0"
    C1HWNC0 = "C1HWNC0"
    SCALEA_ND = "SCALEA_ND"
    SCALEB_DN = "SCALEB_DN"
    SCALEA_zZ = "SCALEA_zZ"
    SCALEB_nN = "SCALEB_nN"


@irdl_attr_definition
class DataLayoutAttr(ParametrizedAttribute):
    """`#hivm.data_layout<nZ>`, `<dotA_ND, transpose = false>`, `<nZ, fractalSizes = [16, 16]>`:
    how a matrix is laid out (convert_layout's source and destination). Absent optional
    parameters are an empty string / an empty array (plain parameters export to IRDL)."""

    name = "hivm.data_layout"

    layout: StringAttr = param_def()
    transpose: StringAttr = param_def()  # "", "true" or "false"
    fractal_sizes: DenseArrayBase = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        layout = StringAttr(parser.parse_str_enum(DataLayout).value)
        transpose = ""
        fractal: list[int] = []
        while parser.parse_optional_punctuation(",") is not None:
            pos = parser.pos
            key = parser.parse_identifier()
            parser.parse_punctuation("=")
            if key == "transpose":
                transpose = "true" if parser.parse_boolean() else "false"
            elif key == "fractalSizes":
                fractal = parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
                )
            else:
                parser.raise_error(f"unknown #hivm.data_layout parameter '{key}'", pos, parser.pos)
        parser.parse_punctuation(">")
        return (layout, StringAttr(transpose), DenseArrayBase.from_list(i64, fractal))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.layout.data}")
        if self.transpose.data:
            printer.print_string(f", transpose = {self.transpose.data}")
        values = cast(DenseArrayBase[IntegerType], self.fractal_sizes).get_values()
        if values:
            printer.print_string(f", fractalSizes = [{', '.join(str(v) for v in values)}]")
        printer.print_string(">")


class MacroSync(StrEnum):
    wait = "wait"
    set = "set"
    internal = "internal"


@irdl_attr_definition
class SyncEventSlotAttr(ParametrizedAttribute):
    """One `sync_event_slots` entry of a custom_macro: `#hivm.sync_event_slot<internal>`,
    `<#hivm.pipe<PIPE_MTE2>, #hivm.pipe<PIPE_MTE1>[, wait|set|internal][, <EVENT_ID1>]>`
    (the macro waits, sets, or only needs an event id; the event pins one). An absent
    pipe is "", an absent event -1 (plain parameters export to IRDL)."""

    name = "hivm.sync_event_slot"

    set_pipe_: StringAttr = param_def()
    wait_pipe_: StringAttr = param_def()
    macro_sync: StringAttr = param_def()
    event_: IntAttr = param_def()

    @property
    def set_pipe(self) -> PipeAttr | None:
        return PipeAttr(Pipe(self.set_pipe_.data)) if self.set_pipe_.data else None

    @property
    def wait_pipe(self) -> PipeAttr | None:
        return PipeAttr(Pipe(self.wait_pipe_.data)) if self.wait_pipe_.data else None

    @property
    def event(self) -> int | None:
        return self.event_.data if self.event_.data >= 0 else None

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        pipes = ["", ""]
        sync = MacroSync.internal
        event = -1
        pos = parser.pos
        keyword = parser.parse_optional_str_enum(MacroSync)
        if keyword is not None and keyword != MacroSync.internal:
            parser.raise_error("macro_sync without pipes is only supported for `internal`", pos, parser.pos)
        if keyword is None:
            pipes[0] = cls._parse_pipe(parser)
            parser.parse_punctuation(",")
            pipes[1] = cls._parse_pipe(parser)
        if parser.parse_optional_punctuation(",") is not None:
            named = parser.parse_optional_str_enum(MacroSync) if keyword is None else None
            if named is not None:
                sync = named
                if parser.parse_optional_punctuation(",") is not None:
                    event = cls._parse_event(parser)
            else:
                event = cls._parse_event(parser)
        parser.parse_punctuation(">")
        return (StringAttr(pipes[0]), StringAttr(pipes[1]), StringAttr(sync.value), IntAttr(event))

    @staticmethod
    def _parse_pipe(parser: AttrParser) -> str:
        pos = parser.pos
        attr = parser.parse_attribute()
        if not isinstance(attr, PipeAttr):
            parser.raise_error(f"expected #hivm.pipe<...>, got {attr}", pos, parser.pos)
        return attr.data.value

    @staticmethod
    def _parse_event(parser: AttrParser) -> int:
        if parser.parse_optional_punctuation("<") is not None:
            return parse_event_body(parser)
        pos = parser.pos
        attr = parser.parse_attribute()
        if not isinstance(attr, EventAttr):
            parser.raise_error("expected `wait`, `set`, `internal`, or an event attribute", pos, parser.pos)
        return attr.data

    def print_parameters(self, printer: Printer) -> None:
        sync = self.macro_sync.data
        printer.print_string("<")
        if not self.set_pipe_.data:
            printer.print_string(sync)
        else:
            printer.print_string(f"#hivm.pipe<{self.set_pipe_.data}>, #hivm.pipe<{self.wait_pipe_.data}>")
            if sync != MacroSync.internal or self.event is not None:
                printer.print_string(f", {sync}")
        if self.event is not None:
            printer.print_string(f", <EVENT_ID{self.event}>")
        printer.print_string(">")
