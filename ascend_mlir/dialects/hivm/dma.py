"""DMA ops: load (gm -> ub), store (ub -> gm), copy (on-chip), nd2nz (gm -> cbuf), fixpipe (cc -> ...),
load_scale (a5: an MX scale tile gm -> cbuf)."""

from __future__ import annotations

from abc import ABC
from collections.abc import Iterable, Sequence
from functools import cache
from typing import ClassVar, cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    BoolAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ascend_mlir import hardware
from ascend_mlir.dialects.hivm.attrs import (
    AtomicKindAttr,
    EvictionPolicyAttr,
    FixpipeDMAMode,
    FixpipeDMAModeAttr,
    FixpipeDualDstMode,
    FixpipeDualDstModeAttr,
    FixpipePreQuantMode,
    FixpipePreQuantModeAttr,
    FixpipePreReluMode,
    FixpipePreReluModeAttr,
    PadMode,
    PadModeAttr,
    TCoreTypeAttr,
    UnitFlagAttr,
)
from ascend_mlir.dialects.hivm.interface import (
    MEMREF_OR_TENSOR,
    DestinationStyleResults,
    element_type_of,
    memref_values,
    scope_of,
    scope_text,
    shape_of,
    verify_same_element_type,
    verify_same_shape,
    verify_scope,
)
from ascend_mlir.dialects.hivm.memory import GetSubBlockIdxOp
from ascend_mlir.dialects.hivm.syntax import (
    Clause,
    HivmOp,
    InsOutsOp,
    parse_unit_flags,
    print_unit_flags,
)


def verify_padding(op: HivmOp, pad_mode: PadModeAttr | None, pad_value: SSAValue | None) -> None:
    """Padding rules of load/copy: without padding the shapes match; with it only the last
    dimension may grow, and PadValue needs (PadFirstElem forbids) a pad value."""
    src, dst = op.operands[0], op.operands[1]
    mode = pad_mode.data if pad_mode is not None else PadMode.PadNull
    if mode == PadMode.PadNull:
        verify_same_shape(op, src, dst, "without padding, source and destination")
        if pad_value is not None:
            raise VerifyException("pad_value needs pad_mode PadValue")
    else:
        if mode == PadMode.PadValue and pad_value is None:
            raise VerifyException("pad_mode PadValue needs a pad_value")
        if mode == PadMode.PadFirstElem and pad_value is not None:
            raise VerifyException("pad_mode PadFirstElem pads with the first element and takes no pad_value")
        src_shape, dst_shape = shape_of(src), shape_of(dst)
        if src_shape is not None and dst_shape is not None:
            if len(src_shape) != len(dst_shape) or any(
                x != y and DYNAMIC_INDEX not in (x, y) for x, y in zip(src_shape[:-1], dst_shape[:-1])
            ):
                raise VerifyException("with padding only the last dimension of source and destination may differ")
            if src_shape and DYNAMIC_INDEX not in (src_shape[-1], dst_shape[-1]) and dst_shape[-1] < src_shape[-1]:
                raise VerifyException(
                    f"padding cannot shrink the last dimension ({src_shape[-1]} -> {dst_shape[-1]})"
                )
    if pad_value is not None and pad_value.type != element_type_of(dst):
        raise VerifyException(f"pad_value type {pad_value.type} differs from the element type {element_type_of(dst)}")


# ---------------------------------------------------------------------------
# DMA ops
# ---------------------------------------------------------------------------


@cache
def _paths_of(op_name: str) -> tuple[hardware.CopyPath, ...]:
    paths = tuple(p for p in hardware.COPY_PATHS.values() if f"hivm.hir.{p.op}" == op_name)
    assert paths, f"{op_name} performs no copy path of hardware.COPY_PATHS"
    return paths


def _either(names: Sequence[str]) -> str:
    """"a", "a or b", "a, b or c"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


class _DmaOp(InsOutsOp, ABC):
    """A copy between memories over one of the op's paths in hardware.COPY_PATHS, which
    give its legal scopes and its pipe."""

    # the tensor form: the new value of a tensor destination
    result_tensor = opt_result_def(TensorType)

    traits = traits_def(DestinationStyleResults())
    # bishengir's load, store and copy print the attr-dict after `outs(...)`; nd2nz and
    # fixpipe before `ins(...)`
    ATTR_DICT_FIRST: ClassVar[bool] = False

    @classmethod
    def copy_paths(cls) -> tuple[hardware.CopyPath, ...]:
        """The copy paths (hardware.COPY_PATHS) this op performs."""
        return _paths_of(cls.name)

    @classmethod
    def copy_rule(cls) -> str:
        """"fixpipe moves cc -> gm, cbuf or ub": the paths, for diagnostics and docs."""
        paths = cls.copy_paths()
        sources = dict.fromkeys(p.src for p in paths)
        return f"{cls.name.removeprefix('hivm.hir.')} moves " + "; ".join(
            f"{src} -> {_either([p.dst for p in paths if p.src == src])}" for src in sources)

    def pipes(self) -> tuple[str, ...]:
        """The pipe of the path to the destination's scope (the op's first path while
        that scope is unassigned)."""
        paths = self.copy_paths()
        dst = scope_of(self.dst)
        return (next((p for p in paths if p.dst == dst), paths[0]).pipe,)

    def verify_copy_path(self) -> None:
        """Source and destination are in the scopes of one of the op's paths. Whether the
        module's chip has that path is chip data, judged where the chip is known
        (`analysis.hardware_checks.chip_limit_errors`), never by loading chip files here."""
        paths, rule = self.copy_paths(), self.copy_rule()
        sources = tuple(dict.fromkeys(p.src for p in paths))
        destinations = tuple(dict.fromkeys(p.dst for p in paths))
        verify_scope(self, self.src, "source", sources, rule)
        verify_scope(self, self.dst, "destination", destinations, rule)

    def copy_path(self) -> hardware.CopyPath | None:
        """The path of `copy_paths()` this op takes (None while a scope is unassigned)."""
        path = hardware.COPY_PATHS.get((scope_of(self.src) or "", scope_of(self.dst) or ""))
        return path if path in self.copy_paths() else None

@irdl_op_definition
class LoadOp(_DmaOp):
    """gm -> ub on PIPE_MTE2 (optionally padding the destination)."""

    name = "hivm.hir.load"

    src = operand_def(MEMREF_OR_TENSOR)
    dst = operand_def(MEMREF_OR_TENSOR)
    pad_value = opt_operand_def()
    left_padding_num = opt_operand_def(IndexType)
    right_padding_num = opt_operand_def()
    init_condition = opt_operand_def()

    pad_mode = opt_prop_def(PadModeAttr)
    init_out_buffer = opt_prop_def(BoolAttr)
    may_implicit_transpose_with_last_axis = opt_prop_def(BoolAttr)
    eviction_policy = opt_prop_def(EvictionPolicyAttr)
    tcoretype = opt_prop_def(TCoreTypeAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("pad_mode", "init_out_buffer", "may_implicit_transpose_with_last_axis",
                                               "eviction_policy", "tcoretype")
    # optional groups of bishengir's format: a bool prints whenever the property is present
    CLAUSES: ClassVar[tuple[Clause, ...]] = (
        Clause("pad_mode", "enum", PadModeAttr),
        Clause("pad_value", "value"),
        Clause("left_padding_num", "value"),
        Clause("init_out_buffer", "bool"),
        Clause("right_padding_num", "value"),
        Clause("init_condition", "value"),
        Clause("may_implicit_transpose_with_last_axis", "bool"),
        Clause("eviction_policy", "enum", EvictionPolicyAttr),
        Clause("core_type", "enum", TCoreTypeAttr, name="tcoretype", always=True),
    )

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

    def core_type(self) -> str:
        return "VECTOR"

    def verify_(self) -> None:
        self.verify_copy_path()
        verify_same_element_type(self, self.src, self.dst, "source and destination")
        verify_padding(self, self.pad_mode, self.pad_value)



@irdl_op_definition
class StoreOp(_DmaOp):
    """ub -> gm on PIPE_MTE3 (optionally an atomic accumulate)."""

    name = "hivm.hir.store"

    src = operand_def(MEMREF_OR_TENSOR)
    dst = operand_def(MEMREF_OR_TENSOR)
    atomic_kind = opt_prop_def(AtomicKindAttr)
    may_implicit_transpose_with_last_axis = opt_prop_def(BoolAttr)

    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("atomic_kind",)
    CLAUSES: ClassVar[tuple[Clause, ...]] = (Clause("atomic", "enum", AtomicKindAttr, name="atomic_kind"),)
    ELIDED_DEFAULTS: ClassVar[dict[str, Attribute]] = {
        "may_implicit_transpose_with_last_axis": IntegerAttr.from_bool(False)
    }

    def __init__(self, src: SSAValue | Operation, dst: SSAValue | Operation, *, atomic_kind: AtomicKindAttr | None = None):
        super().__init__(
            operands=[src, dst],
            properties={"atomic_kind": atomic_kind} if atomic_kind is not None else {},
        )

    def core_type(self) -> str:
        return "VECTOR"

    def memref_reads(self) -> tuple[SSAValue, ...]:
        # An atomic store reads the destination it accumulates into.
        return memref_values((self.src, self.dst) if self.atomic_kind is not None else (self.src,))

    def verify_(self) -> None:
        self.verify_copy_path()
        verify_same_element_type(self, self.src, self.dst, "source and destination")
        verify_same_shape(self, self.src, self.dst, "source and destination")



@irdl_op_definition
class CopyOp(_DmaOp):
    """On-chip copy: ub -> ub (vector pipe) or ub -> cbuf (MTE3, Ascend 950)."""

    name = "hivm.hir.copy"

    src = operand_def(MEMREF_OR_TENSOR)
    dst = operand_def(MEMREF_OR_TENSOR)
    pad_value = opt_operand_def()
    pad_mode = opt_prop_def(PadModeAttr)
    collapse_reassociation = opt_prop_def(ArrayAttr)

    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("pad_mode", "collapse_reassociation")
    CLAUSES: ClassVar[tuple[Clause, ...]] = (Clause("pad_mode", "enum", PadModeAttr), Clause("pad_value", "value"))

    def __init__(self, src: SSAValue | Operation, dst: SSAValue | Operation):
        super().__init__(operands=[src, dst, []])

    def core_type(self) -> str:
        return "VECTOR"

    def verify_(self) -> None:
        self.verify_copy_path()
        verify_same_element_type(self, self.src, self.dst, "source and destination")
        if self.collapse_reassociation is None:
            verify_padding(self, self.pad_mode, self.pad_value)

    @classmethod
    def _parse_extra_clauses(
        cls, parser: Parser, props: dict[str, Attribute], operands: dict[str, SSAValue | Sequence[SSAValue] | None],
    ) -> None:
        if parser.parse_optional_keyword("collapse_reassociation"):
            parser.parse_punctuation("=")
            groups = parser.parse_comma_separated_list(
                Parser.Delimiter.SQUARE,
                lambda: parser.parse_comma_separated_list(
                    Parser.Delimiter.SQUARE, lambda: IntegerAttr(parser.parse_integer(allow_boolean=False), i64)
                ),
            )
            props["collapse_reassociation"] = ArrayAttr([ArrayAttr(g) for g in groups])

    def _print_extra_clauses(self, printer: Printer) -> None:
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

    src = operand_def(MEMREF_OR_TENSOR)
    dst = operand_def(MEMREF_OR_TENSOR)
    pad_value = opt_operand_def()
    init_condition = opt_operand_def()
    dst_continuous = opt_prop_def(UnitAttr)
    init_out_buffer = opt_prop_def(BoolAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("init_out_buffer",)
    ATTR_DICT_FIRST: ClassVar[bool] = True
    CLAUSES: ClassVar[tuple[Clause, ...]] = (
        Clause("init_out_buffer", "bool"), Clause("pad_value", "value"), Clause("init_condition", "value"),
    )

    def __init__(self, src: SSAValue | Operation, dst: SSAValue | Operation, *, dst_continuous: bool = False):
        super().__init__(
            operands=[src, dst, [], []],
            properties={"dst_continuous": UnitAttr()} if dst_continuous else {},
        )

    def core_type(self) -> str:
        return "CUBE"

    def verify_(self) -> None:
        self.verify_copy_path()
        verify_same_element_type(self, self.src, self.dst, "source and destination")
        init = self.init_out_buffer
        if init is not None and init.value.data and self.pad_value is None:
            raise VerifyException("init_out_buffer = true needs a pad_value")



@irdl_op_definition
class FixpipeOp(_DmaOp):
    """cc -> gm | cbuf | ub on PIPE_FIX, with optional layout change, quantisation, ReLU.

    `dual_dst_mode = <ROW_SPLIT>` splits the rows between the two vector cores' ub (950).
    """

    name = "hivm.hir.fixpipe"

    src = operand_def(MEMREF_OR_TENSOR)
    dst = operand_def(MEMREF_OR_TENSOR)
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
    ATTR_DICT_FIRST: ClassVar[bool] = True
    # dual_dst_mode prints whenever present, even at its default (bishengir does the same)
    CLAUSES: ClassVar[tuple[Clause, ...]] = (Clause("dual_dst_mode", "enum", FixpipeDualDstModeAttr, always=True),)

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

    def core_type(self) -> str:
        return "CUBE"

    @property
    def is_dual(self) -> bool:
        """Whether the fixpipe splits its result between the two vector cores' ub: a
        dual_dst_mode other than NO_DUAL, or a ub destination half as tall as the source."""
        if self.dual_dst_mode is not None and self.dual_dst_mode.data != FixpipeDualDstMode.NO_DUAL:
            return True
        src, dst = shape_of(self.src), shape_of(self.dst)
        return bool(scope_of(self.dst) == "ub" and src and dst and src[0] != DYNAMIC_INDEX
                    and src[0] == hardware.VECTOR_CORES_PER_CUBE * dst[0])

    def verify_(self) -> None:
        self.verify_copy_path()
        dual = self.dual_dst_mode
        if dual is not None and dual.data != FixpipeDualDstMode.NO_DUAL:
            if scope_of(self.dst) != "ub":
                raise VerifyException(
                    f"dual_dst_mode needs a ub destination (the two vector cores' ub), got {scope_text(self.dst)}"
                )
            if self.dma_mode.data == FixpipeDMAMode.NZ2DN:
                raise VerifyException("dual_dst_mode needs dma_mode nz2nd or normal")
            src_shape, dst_shape = shape_of(self.src), shape_of(self.dst)
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
    def _parse_attr_dict(cls, parser: Parser) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
        props, attrs = super()._parse_attr_dict(parser)
        # bishengir still accepts the older unit attribute spelling.
        if "enable_nz2nd" in attrs:
            del attrs["enable_nz2nd"]
            props["dma_mode"] = FixpipeDMAModeAttr(FixpipeDMAMode.NZ2ND)
        return props, attrs

    @classmethod
    def _parse_extra_clauses(
        cls, parser: Parser, props: dict[str, Attribute], operands: dict[str, SSAValue | Sequence[SSAValue] | None],
    ) -> None:
        parse_unit_flags(parser, props, operands)

    def _print_extra_clauses(self, printer: Printer) -> None:
        print_unit_flags(printer, self.unit_flag_mode, self.unit_flag_cond)



def uses_both_vector_cores(funcs: Iterable[Operation | None]) -> bool:
    """Whether a kernel (its functions; a MIX pair's two) splits its vector work between
    the two vector cores of an AI Core (get_sub_block_idx, or a dual fixpipe); else one
    vector core runs it. The simulator, the cce printer and verify-sync ask this."""
    return any(isinstance(op, GetSubBlockIdxOp) or (isinstance(op, FixpipeOp) and op.is_dual)
               for f in funcs if f is not None for op in f.walk())


@irdl_op_definition
class LoadScaleOp(InsOutsOp):
    """`hivm.hir.load_scale ins(%s : gm) outs(%d : cbuf) [is_transposed = true]` (the a5
    build's syntax; bishengir-opt 1.2.0 for A3 does not know it): an MX matmul's scale
    tile from GM into L1, in the fractal layout the MX cube reads (MTE2 of the cube core).
    bishengir-opt-a5 checks no scope or type; the scopes its description names and an
    8-bit element type (an MX scale is an 8-bit exponent) are checked here. The
    layout it writes is bishengir's SCALEA_zZ / SCALEB_nN (dst[i, j, r, c] =
    src[i * 16 + r, j * 2 + c] for [Mt, Kt, 16, 2] fractals), which the simulator runs."""

    name = "hivm.hir.load_scale"

    src = operand_def(MEMREF_OR_TENSOR)
    dst = operand_def(MEMREF_OR_TENSOR)
    is_transposed = opt_prop_def(BoolAttr)
    result_tensor = opt_result_def(TensorType)

    traits = traits_def(DestinationStyleResults())
    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("is_transposed",)
    # DefaultValuedOptionalAttr<BoolAttr, "false">: elided at false, not materialised
    ELIDED_DEFAULTS: ClassVar[dict[str, Attribute]] = {"is_transposed": IntegerAttr.from_bool(False)}
    CLAUSES: ClassVar[tuple[Clause, ...]] = (Clause("is_transposed", "bool", default_elided=True),)

    def pipes(self) -> tuple[str, ...]:
        return ("MTE2",)

    def core_type(self) -> str:
        return "CUBE"

    def verify_(self) -> None:
        rule = "load_scale moves an MX scale tile gm -> cbuf"
        verify_scope(self, self.src, "source", ("gm",), rule)
        verify_scope(self, self.dst, "destination", ("cbuf",), rule)
        verify_same_element_type(self, self.src, self.dst, "source and destination")
        element = element_type_of(self.src)
        if not isinstance(element, IntegerType) or element.width.data != 8:
            raise VerifyException(f"an MX scale is 8-bit, got {element}")
