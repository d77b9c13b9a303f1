"""User-provided kernels called from hivm (bishengir-opt 1.2.0 syntax): `hivm.hir.custom`
(one call on one pipe) and `hivm.hir.custom_macro` (a macro kernel from an input pipe to
an output pipe, with the event slots it synchronises through).

    %r = hivm.hir.custom {hivm.pipe = #hivm.pipe<PIPE_V>, hivm.tcore_type = #hivm.tcore_type<VECTOR>,
                          symbol = "foo"} "my_op" ins(%a, %n : memref<?xf32>, i64)
                          outs(%e : tensor<3x3xf32>) [tmps(%t : memref<256xf32>)] -> tensor<3x3xf32>
    hivm.hir.custom_macro {hivm.pipe_in = ..., hivm.pipe_out = ..., symbol = "k",
                           sync_event_slots = [#hivm.sync_event_slot<...>]} "user.k"
                           ins(...) outs(...) [sync_related_args(%e : i64)]

What the callee computes is not known here: the ops take part in dependences and sync
through the memrefs they read (ins, tmps) and write (outs, tmps) on their pipes, and the
simulator refuses to run them (no semantics)."""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from typing import ClassVar, cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ascend_mlir.dialects.hivm.attrs import (
    MacroSync,
    Pipe,
    PipeAttr,
    SyncEventSlotAttr,
    TCoreType,
    TCoreTypeAttr,
    VFModeAttr,
)
from ascend_mlir.dialects.hivm.interface import memref_values
from ascend_mlir.dialects.hivm.syntax import (
    HivmOp,
    parse_values_with_types,
    print_mlir_attr_dict,
    print_values_with_types,
)

class _CustomBase(HivmOp, ABC):
    """`attr-dict "name" [ins(..)] [outs(..)] [tmps(..)] [-> types]` and the checks both ops share."""

    op_name = prop_def(StringAttr, prop_name="name")
    no_side_effect = opt_prop_def(UnitAttr)
    inputs = var_operand_def()
    outputs = var_operand_def()
    temp_buffers = var_operand_def()
    results_ = var_result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    GROUPS: ClassVar[tuple[tuple[str, str], ...]] = (("ins", "inputs"), ("outs", "outputs"), ("tmps", "temp_buffers"))

    def __post_init__(self):
        super().__post_init__()
        if list(self.attributes) != sorted(self.attributes):  # MLIR's dictionaries are sorted
            self.attributes = dict(sorted(self.attributes.items()))

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        return tuple(self.inputs)

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return tuple(self.outputs)

    def memref_reads(self) -> tuple[SSAValue, ...]:
        return memref_values((*self.inputs, *self.temp_buffers))

    def memref_writes(self) -> tuple[SSAValue, ...]:
        return memref_values((*self.outputs, *self.temp_buffers))

    def core_type(self) -> str:
        core = self.attributes.get("hivm.tcore_type")
        if isinstance(core, TCoreTypeAttr) and core.data in (TCoreType.CUBE, TCoreType.VECTOR):
            return core.data.value
        return super().core_type()

    def _pipe(self, key: str) -> str | None:
        pipe = self.attributes.get(key)
        if isinstance(pipe, PipeAttr) and pipe.data != Pipe.PIPE_UNASSIGNED:
            return pipe.pipe_name
        return None

    @classmethod
    def _parse_groups(cls, parser: Parser) -> dict[str, SSAValue | Sequence[SSAValue] | None]:
        operands: dict[str, SSAValue | Sequence[SSAValue] | None] = {}
        for keyword, group in cls.GROUPS:
            operands[group] = parse_values_with_types(parser) if parser.parse_optional_keyword(keyword) else []
        return operands

    @classmethod
    def _parse_head(cls, parser: Parser) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
        props, attrs = cls._parse_attr_dict(parser)
        props["name"] = StringAttr(parser.parse_str_literal())
        return props, attrs

    def _print_head_and_groups(self, printer: Printer) -> None:
        entries = {k: v for k, v in self.properties.items() if k not in ("name", "operandSegmentSizes")}
        print_mlir_attr_dict(printer, entries | self.attributes)
        printer.print_string(" ")
        printer.print_string_literal(self.op_name.data)
        for keyword, group in self.GROUPS:
            values = getattr(self, group)
            if values:
                printer.print_string(f" {keyword}")
                print_values_with_types(printer, values)
        if self.results:
            printer.print_string(" -> ")
            printer.print_list([r.type for r in self.results], printer.print_attribute)

    # -- bishengir's checks, in its order and words ---------------------------------

    PIPE_KEYS: ClassVar[tuple[tuple[str, str], ...]] = ()

    def verify_(self) -> None:
        # (bishengir's newer sources add `__builtin_*` names with fixed pipes; 1.2.0 has none)
        self._verify_extra_buffers()
        core = self.attributes.get("hivm.tcore_type")
        if not isinstance(core, TCoreTypeAttr):
            raise VerifyException("Missing core type information")
        if core.data != TCoreType.CUBE and _on_ascend950(self) and not isinstance(self.attributes.get("hivm.vf_mode"), VFModeAttr):
            raise VerifyException("Missing vf mode information")
        for key, what in self.PIPE_KEYS:
            if self._pipe(key) is None:
                raise VerifyException(f"Missing {what} information")
        symbol = self.attributes.get("symbol")
        if not isinstance(symbol, StringAttr) or not symbol.data:
            raise VerifyException("Missing implementation function name")

    def _verify_extra_buffers(self) -> None:
        types = self.attributes.get("extra_buffers_types")
        sizes = self.attributes.get("extra_buffers_sizes")
        if types is None and sizes is None:
            return
        if not isinstance(types, ArrayAttr) or not isinstance(sizes, ArrayAttr):
            raise VerifyException("Either extra buffers' types or sizes missing")
        if len(types.data) != len(sizes.data):
            raise VerifyException("Extra buffers' types and sizes mismatch")
        if not all(isinstance(t, TypeAttribute) for t in types.data):
            raise VerifyException("Extra buffers' types must be an array of type attributes")
        for size in sizes.data:
            if not isinstance(size, IntegerAttr):
                raise VerifyException("Extra buffers' sizes must be an array of integer attributes")
            if size.value.data < 0:
                raise VerifyException("Extra buffer size must be non-negative")


def _on_ascend950(op: HivmOp) -> bool:
    """bishengir asks for a vf mode on the 950 (Ascend910_95) only, read from the module."""
    from ascend_mlir.dialects.hacc import TARGET, TargetAttr

    module = op.get_toplevel_object()
    if not isinstance(module, ModuleOp):
        return False
    target = module.attributes.get(TARGET)
    return isinstance(target, TargetAttr) and target.data.startswith(("Ascend910_95", "Ascend950"))


@irdl_op_definition
class CustomOp(_CustomBase):
    """A user kernel on one pipe (`hivm.pipe`)."""

    name = "hivm.hir.custom"

    PIPE_KEYS: ClassVar[tuple[tuple[str, str], ...]] = (("hivm.pipe", "pipe"),)

    def pipes(self) -> tuple[str, ...]:
        pipe = self._pipe("hivm.pipe")
        return (pipe,) if pipe is not None else ()

    @classmethod
    def parse(cls, parser: Parser) -> CustomOp:
        props, attrs = cls._parse_head(parser)
        operands = cls._parse_groups(parser)
        result_types = cls._parse_arrow_types(parser)
        return cls._make(operands, props, attrs, result_types)

    @staticmethod
    def _parse_arrow_types(parser: Parser) -> list[Attribute]:
        if parser.parse_optional_punctuation("->") is None:
            return []
        if parser.parse_optional_punctuation("(") is not None:
            types: list[Attribute] = list(parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type))
            parser.parse_punctuation(")")
            return types
        return [parser.parse_type()]

    def print(self, printer: Printer) -> None:
        self._print_head_and_groups(printer)


@irdl_op_definition
class CustomMacroOp(_CustomBase):
    """A user macro kernel from `hivm.pipe_in` to `hivm.pipe_out`; `sync_related_args` are
    the event ids of its `sync_event_slots`, one each."""

    name = "hivm.hir.custom_macro"

    sync_related_args = var_operand_def(i64)

    PIPE_KEYS: ClassVar[tuple[tuple[str, str], ...]] = (("hivm.pipe_in", "input pipe"), ("hivm.pipe_out", "output pipe"))

    def pipes(self) -> tuple[str, ...]:
        pipes = [p for p in (self._pipe("hivm.pipe_in"), self._pipe("hivm.pipe_out")) if p is not None]
        return tuple(dict.fromkeys(pipes))

    def slots(self) -> list[SyncEventSlotAttr]:
        slots = self.attributes.get("sync_event_slots")
        if not isinstance(slots, ArrayAttr):
            return []
        return [s for s in cast(ArrayAttr[Attribute], slots).data if isinstance(s, SyncEventSlotAttr)]

    def verify_(self) -> None:
        super().verify_()
        slots = self.slots()
        if self.sync_related_args and len(self.sync_related_args) != len(slots):
            if not slots:
                raise VerifyException("sync_related_args should be empty")
            raise VerifyException(f"sync_related_args should be of size {len(slots)}")
        reserved: set[tuple[str, str, int]] = set()
        for slot in slots:
            sync = slot.macro_sync.data
            if sync != MacroSync.internal and slot.set_pipe is None:
                raise VerifyException("sync_event_slot requires set_pipe and wait_pipe for `wait` and `set` macro_sync")
            if slot.event is None:
                continue
            if sync == MacroSync.internal:
                key = ("", "", slot.event)
                where = "on internal slot"
            else:
                key = (slot.set_pipe_.data, slot.wait_pipe_.data, slot.event)
                where = "on the same pipe pair"
            if key in reserved:
                raise VerifyException(f"duplicate user-specified sync event id {where}")
            reserved.add(key)

    @classmethod
    def parse(cls, parser: Parser) -> CustomMacroOp:
        props, attrs = cls._parse_head(parser)
        operands = cls._parse_groups(parser)
        result_types = CustomOp._parse_arrow_types(parser)
        operands["sync_related_args"] = (
            parse_values_with_types(parser) if parser.parse_optional_keyword("sync_related_args") else []
        )
        return cls._make(operands, props, attrs, result_types)

    def print(self, printer: Printer) -> None:
        self._print_head_and_groups(printer)
        if self.sync_related_args:
            printer.print_string(" sync_related_args")
            print_values_with_types(printer, self.sync_related_args)


CUSTOM_OPS = (CustomOp, CustomMacroOp)
