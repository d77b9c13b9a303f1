"""Ops that configure, mark or instrument a kernel rather than move or compute data
(bishengir-opt 1.2.0 syntax): set_ctrl (a control-register bit, on the scalar unit),
anchor (a5 build: a marker bishengir's passes leave), debug / init_debug / finish_debug
(device printf), bitcast (the same bytes seen with another element type), and the
cross-core block barrier and lock ops (sync_block, create_sync_block_lock,
sync_block_lock, sync_block_unlock, free_lock_var), and multi_buffer_counter (a loop's
multi-buffer slot counter, from bishengir's sources)."""

from __future__ import annotations

from typing import ClassVar, cast

from xdsl.dialects.builtin import (
    I64,
    BoolAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ascend_mlir.dialects.hivm.attrs import (
    AddressSpaceAttr,
    PipeAttr,
    SyncBlockMode,
    SyncBlockModeAttr,
    TCoreTypeAttr,
)
from ascend_mlir.dialects.hivm.syntax import parse_enum, print_short


@irdl_op_definition
class SetCtrlOp(IRDLOperation):
    """`hivm.hir.set_ctrl true at ctrl[60]`: set bit `idx` of the control register."""

    name = "hivm.hir.set_ctrl"

    enable = prop_def(BoolAttr)
    idx = prop_def(IntegerAttr[I64])

    @classmethod
    def parse(cls, parser: Parser) -> SetCtrlOp:
        enable = IntegerAttr.from_bool(parser.parse_boolean())
        parser.parse_keyword("at")
        parser.parse_keyword("ctrl")
        parser.parse_punctuation("[")
        idx = IntegerAttr(parser.parse_integer(allow_boolean=False), i64)
        parser.parse_punctuation("]")
        op = cls(properties={"enable": enable, "idx": idx})
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {'true' if self.enable.value.data else 'false'} at ctrl[{self.idx.value.data}]")
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class AnchorOp(IRDLOperation):
    """`hivm.hir.anchor {id = 0 : i64}`: a marker of bishengir's a5 passes (no effect)."""

    name = "hivm.hir.anchor"

    id = prop_def(IntegerAttr[I64])
    tcore_type = opt_prop_def(TCoreTypeAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"


@irdl_op_definition
class DebugOp(IRDLOperation):
    """`hivm.hir.debug {debugtype = "print", hex = false, prefix = "x"} %v : type`: device printf."""

    name = "hivm.hir.debug"

    debugtype = prop_def(StringAttr)
    prefix = prop_def(StringAttr)
    hex = prop_def(BoolAttr)
    arg = operand_def()
    tcoretype = opt_prop_def(TCoreTypeAttr)
    memscope = opt_prop_def(AddressSpaceAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict $arg `:` type($arg)"

    def verify_(self) -> None:
        t = self.arg.type
        if not isinstance(t, IntegerType | MemRefType | TensorType) and str(t) not in ("f16", "bf16", "f32", "f64"):
            raise VerifyException(f"debug prints an integer, a float, a tensor or a memref, got {t}")


@irdl_op_definition
class InitDebugOp(IRDLOperation):
    name = "hivm.hir.init_debug"
    assembly_format = "attr-dict"


@irdl_op_definition
class FinishDebugOp(IRDLOperation):
    name = "hivm.hir.finish_debug"
    assembly_format = "attr-dict"


@irdl_op_definition
class BitcastOp(IRDLOperation):
    """`%r = hivm.hir.bitcast %m : memref<256xf32> -> memref<256xi32>`: the same bytes
    with another element type of the same width (same shape, same memory)."""

    name = "hivm.hir.bitcast"

    src = operand_def()
    result = result_def()

    assembly_format = "$src `:` type($src) `->` type($result) attr-dict"

    def verify_(self) -> None:
        source, target = self.src.type, self.result.type
        if isinstance(source, MemRefType | TensorType) != isinstance(target, MemRefType | TensorType):
            raise VerifyException(f"bitcast keeps the kind of value, got {source} -> {target}")
        if isinstance(source, MemRefType | TensorType) and isinstance(target, MemRefType | TensorType):
            if type(source) is not type(target) or source.get_shape() != target.get_shape():
                raise VerifyException(f"bitcast keeps the shape, got {source} -> {target}")
            source, target = source.get_element_type(), target.get_element_type()
        widths = [_bit_width(t) for t in (source, target)]
        if None in widths or widths[0] != widths[1]:
            raise VerifyException(f"bitcast needs element types of one bit width, got {source} -> {target}")


def _bit_width(t: Attribute) -> int | None:
    if isinstance(t, IntegerType):
        return t.width.data
    return {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}.get(str(t))


# ---------------------------------------------------------------------------
# Cross-core barrier and locks
# ---------------------------------------------------------------------------


@irdl_op_definition
class SyncBlockOp(IRDLOperation):
    """`hivm.hir.sync_block[#hivm.sync_block_mode<ALL>, 1 : i16] [ffts_base_addr = %a] [tcube_pipe = <P>]...`:
    a barrier across the cores of the mode."""

    name = "hivm.hir.sync_block"

    ffts_base_addr = opt_operand_def(I64)
    sync_block_mode = prop_def(SyncBlockModeAttr)
    flag_id = opt_prop_def(IntegerAttr)
    tcube_pipe = opt_prop_def(PipeAttr)
    tvector_pipe = opt_prop_def(PipeAttr)

    # bishengir-opt 1.2.0 knows these two (its newer sources add cube_pipe, vector_pipe)
    PIPES: ClassVar[tuple[str, ...]] = ("tcube_pipe", "tvector_pipe")

    def verify_(self) -> None:
        """bishengir's rule (and words): the cube side's pipe with a mode that waits for
        the cube, the vector side's with one that waits for vectors, none for a barrier."""
        mode = self.sync_block_mode.data
        if mode in (SyncBlockMode.BARRIER_CUBE, SyncBlockMode.BARRIER_VECTOR):
            for name in ("tvector_pipe", "tcube_pipe"):
                if name in self.properties:
                    raise VerifyException(f"{name} should not be defined!")
            return
        if mode in (SyncBlockMode.ALL_CUBE, SyncBlockMode.ALL) and self.tcube_pipe is None:
            raise VerifyException("tcube_pipe should be defined!")
        if mode != SyncBlockMode.ALL_CUBE and self.tvector_pipe is None:
            raise VerifyException("tvector_pipe should be defined!")

    @classmethod
    def parse(cls, parser: Parser) -> SyncBlockOp:
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation("[")
        props: dict[str, Attribute] = {"sync_block_mode": parse_enum(parser, SyncBlockModeAttr)}
        if parser.parse_optional_punctuation(",") is not None:
            props["flag_id"] = parser.parse_attribute()
        parser.parse_punctuation("]")
        operands = []
        if parser.parse_optional_keyword("ffts_base_addr"):
            parser.parse_punctuation("=")
            operands.append(parser.resolve_operand(parser.parse_unresolved_operand(), i64))
        for name in cls.PIPES:
            if parser.parse_optional_keyword(name):
                parser.parse_punctuation("=")
                props[name] = parse_enum(parser, PipeAttr)
        op = cls(operands=[operands], properties=dict(sorted(props.items())))  # MLIR prints them sorted
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string("[")
        print_short(printer, self.sync_block_mode)
        if self.flag_id is not None:
            printer.print_string(", ")
            printer.print_attribute(self.flag_id)
        printer.print_string("]")
        if self.ffts_base_addr is not None:
            printer.print_string(" ffts_base_addr = ")
            printer.print_operand(self.ffts_base_addr)
        for name in self.PIPES:
            value = self.properties.get(name)
            if value is not None:
                printer.print_string(f" {name} = ")
                print_short(printer, value)


@irdl_op_definition
class CreateSyncBlockLockOp(IRDLOperation):
    """`%l = hivm.hir.create_sync_block_lock [from %buf] : [from memref<?xi8> to] memref<1xi64>`."""

    name = "hivm.hir.create_sync_block_lock"

    lockArg = opt_operand_def(MemRefType)
    memref = result_def(MemRefType)

    @classmethod
    def parse(cls, parser: Parser) -> CreateSyncBlockLockOp:
        source = parser.parse_unresolved_operand() if parser.parse_optional_keyword("from") else None
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operands = []
        if source is not None:
            parser.parse_keyword("from")
            operands.append(parser.resolve_operand(source, parser.parse_type()))
            parser.parse_keyword("to")
        op = cls(operands=[operands], result_types=[parser.parse_type()])
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        if self.lockArg is not None:
            printer.print_string(" from ")
            printer.print_operand(self.lockArg)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        if self.lockArg is not None:
            printer.print_string("from ")
            printer.print_attribute(self.lockArg.type)
            printer.print_string(" to ")
        printer.print_attribute(self.memref.type)


class _LockVarOp(IRDLOperation):
    """`attr-dict lock_var(%l : memref<1xi64>)`."""

    lock_var = operand_def(MemRefType)

    assembly_format = "attr-dict `lock_var` `(` $lock_var `:` type($lock_var) `)`"

    def verify_(self) -> None:
        t = cast(MemRefType[Attribute], self.lock_var.type)
        if t.element_type != i64 or len(t.get_shape()) != 1:
            raise VerifyException(f"lock_var must be a rank-1 memref of i64, got {t}")


@irdl_op_definition
class SyncBlockLockOp(_LockVarOp):
    name = "hivm.hir.sync_block_lock"


@irdl_op_definition
class SyncBlockUnlockOp(_LockVarOp):
    name = "hivm.hir.sync_block_unlock"


@irdl_op_definition
class FreeLockVarOp(_LockVarOp):
    name = "hivm.hir.free_lock_var"


@irdl_op_definition
class MultiBufferCounterOp(IRDLOperation):
    """`%c = hivm.hir.multi_buffer_counter -> i64`: the anchor of a loop's multi-buffer
    counter (which slot this iteration uses), which bishengir later rewrites to a counter
    in a function-scoped alloca. Syntax of bishengir's sources (its ODS): neither
    bishengir-opt 1.2.0 build knows the op. No pipe: the simulator does not run it (a
    planned kernel holds the rewritten counter instead)."""

    name = "hivm.hir.multi_buffer_counter"

    counter = result_def(i64)

    assembly_format = "attr-dict `->` type($counter)"


CONTROL_OPS = (
    MultiBufferCounterOp,
    SetCtrlOp, AnchorOp, DebugOp, InitDebugOp, FinishDebugOp, BitcastOp,
    SyncBlockOp, CreateSyncBlockLockOp, SyncBlockLockOp, SyncBlockUnlockOp, FreeLockVarOp,
)
