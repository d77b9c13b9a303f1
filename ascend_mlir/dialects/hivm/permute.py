"""Vector ops that move elements without computing (PIPE_V), bishengir-opt 1.2.0 syntax:
vtranspose (swap two axes; on rank 4 also two swaps), vflip (reverse one axis),
vconcat (join its sources along one axis), vpad (surround with a value, as tensor.pad),
vinterleave (merge two sources element by element on the last axis) and vdeinterleave
(split the last axis into its even and odd elements, or keep one of them).

    hivm.hir.vtranspose ins(%s : t) outs(%d : t) [temp_buffer(%b : t)] permutation = [1, 0]
    hivm.hir.vflip ins(%s : t) outs(%d : t) flip_axis = 1
    hivm.hir.vconcat dim(1) ins(%a, %b : t, t) outs(%d : t)
    hivm.hir.vpad ins(%s : t) outs(%d : t) low[0, %n] high[0, 8] pad_value %v : f16
    hivm.hir.vinterleave ins(%a, %b : t, t) outs(%d : t) interleave_channel_nums = 2 [temp_buffer(%b : t)]
    hivm.hir.vdeinterleave ins(%s : t) outs(%even, %odd : t, t) [channel_num = 2] [index_mode = <ALL_CHANNELS>]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    BFloat16Type,
    BoolAttr,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    Signedness,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ascend_mlir.dialects.hivm.attrs import DeinterleaveMode, DeinterleaveModeAttr
from ascend_mlir.dialects.hivm.interface import (
    MEMREF_OR_TENSOR,
    array_values,
    element_type_of,
    shape_of,
    verify_same_element_type,
)
from ascend_mlir.dialects.hivm.syntax import (
    Clause,
    InsOutsOp,
    parse_keyword_values,
    print_keyword_values,
    parse_clauses,
    parse_result_types,
    parse_paren_value,
    print_clauses,
    print_paren_value,
    print_result_types,
    print_value_with_type,
)
from ascend_mlir.dialects.hivm.layout import parse_dynamic_index_list, print_dynamic_index_list
from ascend_mlir.dialects.hivm.vector import _VectorOp


@irdl_op_definition
class VTransposeOp(_VectorOp, InsOutsOp):
    """`dst = transpose(src, permutation)`: one swap of two axes (rank 4: also two swaps)."""

    name = "hivm.hir.vtranspose"

    src = operand_def(MEMREF_OR_TENSOR)
    dst = operand_def(MEMREF_OR_TENSOR)
    temp_buffer = opt_operand_def(MEMREF_OR_TENSOR)
    permutation = prop_def(DenseArrayBase)
    disable_align = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))

    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("permutation", "disable_align")
    CLAUSES: ClassVar[tuple[Clause, ...]] = (
        Clause("temp_buffer", "paren"), Clause("permutation", "ints"),
        Clause("disable_align", "bool", default_elided=True),
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
class VFlipOp(_VectorOp, InsOutsOp):
    """`dst = src` reversed along `flip_axis`."""

    name = "hivm.hir.vflip"

    src = operand_def(MEMREF_OR_TENSOR)
    dst = operand_def(MEMREF_OR_TENSOR)
    flip_axis = prop_def(IntegerAttr[I64])

    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("flip_axis",)

    @classmethod
    def _parse_extra_clauses(
        cls, parser: Parser, props: dict[str, Attribute], operands: dict[str, SSAValue | Sequence[SSAValue] | None],
    ) -> None:
        parser.parse_keyword("flip_axis")
        parser.parse_punctuation("=")
        props["flip_axis"] = IntegerAttr(parser.parse_integer(allow_boolean=False), 64)

    def _print_extra_clauses(self, printer: Printer) -> None:
        printer.print_string(f" flip_axis = {self.flip_axis.value.data}")

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
        src = parse_keyword_values(parser, "ins")
        (dst,) = parse_keyword_values(parser, "outs", 1)
        return cls._make({"src": src, "dst": dst}, props, attrs, parse_result_types(parser))

    def print(self, printer: Printer) -> None:
        printer.print_string(f" dim({self.dim.value.data})")
        self._print_attr_dict(printer)
        print_keyword_values(printer, "ins", self.src)
        print_keyword_values(printer, "outs", (self.dst,))
        print_result_types(printer, self.results)

    def verify_(self) -> None:
        self._verify_ub_operands()
        for value in (*self.src[1:], self.dst):
            if element_type_of(value) != element_type_of(self.src[0]):
                raise VerifyException("requires the same element type for all operands")


def _int(width: int, signedness: Signedness = Signedness.SIGNLESS) -> IntegerType:
    return IntegerType(width, signedness)


_U = Signedness.UNSIGNED
# bishengir-opt 1.2.0's OperElemTypeConstraints, in its order and words (its newer sources
# add i8/ui8/f8/i1 to vinterleave and ui8/f8 to vdeinterleave)
_INTERLEAVE_TYPES: tuple[tuple[Attribute, str], ...] = (
    (_int(16), "16-bit signless integer"), (Float16Type(), "16-bit float"), (_int(16, _U), "16-bit unsigned integer"),
    (_int(32), "32-bit signless integer"), (Float32Type(), "32-bit float"), (_int(32, _U), "32-bit unsigned integer"),
    (BFloat16Type(), "bfloat16 type"), (_int(64), "64-bit signless integer"), (_int(64, _U), "64-bit unsigned integer"),
)
_DEINTERLEAVE_TYPES = ((_int(8), "8-bit signless integer"), *_INTERLEAVE_TYPES)


def _verify_element_type_in(value: SSAValue, allowed: Sequence[tuple[Attribute, str]]) -> None:
    if element_type_of(value) not in [t for t, _ in allowed]:
        words = " or ".join(w for _, w in allowed)
        raise VerifyException(f"failed to verify that operand at idx 0 should have element type {words}")


def _verify_same_rank(values: Sequence[SSAValue]) -> None:
    if len({len(shape_of(v) or ()) for v in values}) > 1:
        raise VerifyException("operands must have same rank")


@irdl_op_definition
class VPadOp(_VectorOp, InsOutsOp):
    """`dst = src` surrounded by `pad_value`: `low[i]` elements before and `high[i]` after
    it on axis i (tensor.pad's meaning). bishengir-opt 1.2.0 checks only the ranks; the
    pad lists' length and the element types are checked here too (a pad list of another
    rank, or a pad value of another type, has no meaning); sizes that do not add up are
    refused by the simulator at the op (a dynamic pad is known only when it runs)."""

    name = "hivm.hir.vpad"

    src = operand_def(MEMREF_OR_TENSOR)
    dst = operand_def(MEMREF_OR_TENSOR)
    pad_value = operand_def()
    low = var_operand_def(IndexType)
    high = var_operand_def(IndexType)
    static_low = prop_def(DenseArrayBase)
    static_high = prop_def(DenseArrayBase)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("static_low", "static_high")

    @classmethod
    def _parse_extra_clauses(
        cls, parser: Parser, props: dict[str, Attribute], operands: dict[str, SSAValue | Sequence[SSAValue] | None],
    ) -> None:
        for side in ("low", "high"):
            parser.parse_keyword(side)
            operands[side], props[f"static_{side}"] = parse_dynamic_index_list(parser)
        parser.parse_keyword("pad_value")
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        operands["pad_value"] = parser.resolve_operand(value, parser.parse_type())

    def _print_extra_clauses(self, printer: Printer) -> None:
        printer.print_string(" low")
        print_dynamic_index_list(printer, self.low, self.static_low)
        printer.print_string(" high")
        print_dynamic_index_list(printer, self.high, self.static_high)
        printer.print_string(" pad_value ")
        print_value_with_type(printer, self.pad_value)

    def pads(self, side: str) -> tuple[int | SSAValue, ...]:
        """The pad sizes of `side` ("low" or "high"), an SSA value where dynamic."""
        dynamic = iter(getattr(self, side))
        return tuple(next(dynamic) if v == DYNAMIC_INDEX else v
                     for v in array_values(getattr(self, f"static_{side}")))

    def verify_(self) -> None:
        self._verify_ub_operands()
        _verify_same_rank((self.src, self.dst))
        rank = len(shape_of(self.src) or ())
        for side in ("low", "high"):
            static = array_values(getattr(self, f"static_{side}"))
            if len(static) != rank:
                raise VerifyException(f"{side} pads {len(static)} axes, but the operands have rank {rank}")
            dynamic = sum(1 for v in static if v == DYNAMIC_INDEX)
            if dynamic != len(getattr(self, side)):
                raise VerifyException(f"expected {dynamic} dynamic {side} pads but got {len(getattr(self, side))}")
            if any(v < 0 for v in static if v != DYNAMIC_INDEX):
                raise VerifyException(f"{side} pads must not be negative, got {list(static)}")
        verify_same_element_type(self, self.src, self.dst, "source and destination")
        if self.pad_value.type != element_type_of(self.src):
            raise VerifyException(
                f"pad_value is {self.pad_value.type}, but the operands hold {element_type_of(self.src)}"
            )


@irdl_op_definition
class VInterleaveOp(_VectorOp):
    """`dst[..., 2j] = a[..., j]`, `dst[..., 2j + 1] = b[..., j]`: bishengir interleaves
    exactly two sources (`interleave_channel_nums = 2`)."""

    name = "hivm.hir.vinterleave"

    src = var_operand_def(MEMREF_OR_TENSOR)
    dst = operand_def(MEMREF_OR_TENSOR)
    temp_buffer = opt_operand_def(MEMREF_OR_TENSOR)
    interleave_channel_nums = prop_def(IntegerAttr[I64], default_value=IntegerAttr(2, 64))

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("interleave_channel_nums",)
    CLAUSES: ClassVar[tuple[Clause, ...]] = (Clause("temp_buffer", "paren"),)

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        return tuple(self.src)

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return (self.dst,)

    @classmethod
    def parse(cls, parser: Parser):
        props, attrs = cls._parse_attr_dict(parser)
        operands: dict[str, SSAValue | Sequence[SSAValue] | None] = {"src": parse_keyword_values(parser, "ins")}
        (operands["dst"],) = parse_keyword_values(parser, "outs", 1)
        parser.parse_keyword("interleave_channel_nums")
        parser.parse_punctuation("=")
        props["interleave_channel_nums"] = IntegerAttr(parser.parse_integer(allow_boolean=False), 64)
        parse_clauses(parser, cls.CLAUSES, props, operands)
        return cls._make(operands, props, attrs, parse_result_types(parser))

    def print(self, printer: Printer) -> None:
        self._print_attr_dict(printer)
        print_keyword_values(printer, "ins", self.src)
        print_keyword_values(printer, "outs", (self.dst,))
        printer.print_string(f" interleave_channel_nums = {self.interleave_channel_nums.value.data}")
        print_clauses(printer, self, self.CLAUSES)
        print_result_types(printer, self.results)

    def verify_(self) -> None:
        # bishengir's checks and words
        self._verify_ub_operands()
        for value in (*self.src, self.dst):
            if element_type_of(value) != element_type_of(self.src[0]):
                raise VerifyException("requires the same element type for all operands")
        _verify_same_rank((*self.src, self.dst))
        _verify_element_type_in(self.src[0], _INTERLEAVE_TYPES)
        if len(self.src) != 2 or len(self.src) != self.interleave_channel_nums.value.data:
            raise VerifyException("Only support interleave two tensor2")


@irdl_op_definition
class VDeinterleaveOp(_VectorOp):
    """`ALL_CHANNELS`: output k gets the elements `k, k + channel_num, ...` of the last
    axis; `CHANNEL_0` / `CHANNEL_1`: the one output gets channel 0 (even) or 1 (odd)."""

    name = "hivm.hir.vdeinterleave"

    src = operand_def(MEMREF_OR_TENSOR)
    dst = var_operand_def(MEMREF_OR_TENSOR)
    channel_num = opt_prop_def(IntegerAttr[I64])
    index_mode = opt_prop_def(DeinterleaveModeAttr)

    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("channel_num", "index_mode")

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        return (self.src,)

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return tuple(self.dst)

    def channels(self) -> int:
        return 2 if self.channel_num is None else self.channel_num.value.data

    def mode(self) -> DeinterleaveMode:
        return DeinterleaveMode.ALL_CHANNELS if self.index_mode is None else DeinterleaveMode(self.index_mode.data)

    @classmethod
    def parse(cls, parser: Parser):
        props, attrs = cls._parse_attr_dict(parser)
        operands: dict[str, SSAValue | Sequence[SSAValue] | None] = {"src": parse_paren_value(parser, "ins")}
        operands["dst"] = parse_keyword_values(parser, "outs")
        if parser.parse_optional_keyword("channel_num"):
            parser.parse_punctuation("=")
            props["channel_num"] = IntegerAttr(parser.parse_integer(allow_boolean=False), 64)
        parse_clauses(parser, (Clause("index_mode", "enum", DeinterleaveModeAttr),), props, operands)
        return cls._make(operands, props, attrs, parse_result_types(parser))

    def print(self, printer: Printer) -> None:
        # bishengir-opt 1.2.0 prints both clauses whenever present, also at their defaults
        self._print_attr_dict(printer)
        print_paren_value(printer, "ins", self.src)
        print_keyword_values(printer, "outs", self.dst)
        if self.channel_num is not None:
            printer.print_string(f" channel_num = {self.channel_num.value.data}")
        print_clauses(printer, self, (Clause("index_mode", "enum", DeinterleaveModeAttr, always=True),))
        print_result_types(printer, self.results)

    def verify_(self) -> None:
        # bishengir's checks and words
        self._verify_ub_operands()
        for value in (self.src, *self.dst):
            if element_type_of(value) != element_type_of(self.src):
                raise VerifyException("requires the same element type for all operands")
        _verify_same_rank((self.src, *self.dst))
        _verify_element_type_in(self.src, _DEINTERLEAVE_TYPES)
        if self.mode() == DeinterleaveMode.ALL_CHANNELS:
            if len(self.dst) != self.channels():
                raise VerifyException("output num mismatch with channel num")
        elif len(self.dst) != 1:
            raise VerifyException("output num for CHANNEL_0 CHANNEL_1 should be one")


PERMUTE_OPS = (VTransposeOp, VFlipOp, VConcatOp, VPadOp, VInterleaveOp, VDeinterleaveOp)
