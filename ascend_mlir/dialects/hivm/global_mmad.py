"""Matrix multiplies on global memory (bishengir-opt 1.2.0 syntax): `hivm.hir.matmul`,
`hivm.hir.mix_matmul` (with a fused vector epilogue) and `hivm.hir.mix_group_matmul`
(grouped by expert). bishengir expands them into L1/L0 tiles and sync later (they are
macro ops on MTE2 and MTE3); we parse, verify and print them, and the simulator refuses
them with a located error (no tile-level expansion here).

    hivm.hir.matmul ins(%a, %b : t, t) outs(%c : t) [tiling_params = %p : t] [bias = %v : t]
        [descale = %d : t] [a_transpose] [b_transpose] [descale_mode = <DescalePerChannel>]
        [block_sizes(%m, %n, %k : i64, i64, i64)] [process_sizes(...)] [swizzle_offset = %s : i64]
        [swizzle_direction = %s : i64] [epilogue_p_tiles = %s : i64] [-> tensor types]
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from typing import ClassVar, Literal

from xdsl.dialects.builtin import DYNAMIC_INDEX, UnitAttr, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ascend_mlir.dialects.hivm.attrs import DescaleMode, DescaleModeAttr
from ascend_mlir.dialects.hivm.interface import MEMREF_OR_TENSOR, memref_values, shape_of
from ascend_mlir.dialects.hivm.syntax import (
    HivmOp,
    parse_enum,
    parse_keyword_values,
    parse_value_with_type,
    parse_values_with_types,
    print_keyword_values,
    print_short,
    print_value_with_type,
)

# (keyword, operand or property, how it is written)
_Kind = Literal["group", "value", "unit", "enum"]
_TAIL: tuple[tuple[str, str, _Kind], ...] = (
    ("tiling_params", "tilingParams", "value"),
    ("comm_params", "commParams", "value"),
    ("bias", "bias", "value"),
    ("descale", "descale", "value"),
    ("a_transpose", "aTranspose", "unit"),
    ("b_transpose", "bTranspose", "unit"),
    ("descale_mode", "descaleMode", "enum"),
    ("block_sizes", "blockSizes", "group"),
    ("process_sizes", "processSizes", "group"),
    ("swizzle_offset", "swizzleOffset", "value"),
    ("swizzle_direction", "swizzleDirection", "value"),
    ("epilogue_p_tiles", "epiloguePTiles", "value"),
)


class _GlobalMmadOp(HivmOp, ABC):
    """The clauses the three ops share; each op lists its `ins` and the groups before `outs`."""

    # each op defines its operands in bishengir's segment order (the definition order)
    aTranspose = opt_prop_def(UnitAttr)
    bTranspose = opt_prop_def(UnitAttr)
    descaleMode = opt_prop_def(DescaleModeAttr)
    result = var_result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("aTranspose", "bTranspose", "descaleMode")
    INS: ClassVar[tuple[str, ...]] = ("a", "b")
    # variadic groups between `ins(...)` and `outs(...)`: (keyword, operand group)
    PRE_OUTS: ClassVar[tuple[tuple[str, str], ...]] = ()

    def _value(self, name: str) -> SSAValue:
        return getattr(self, name)

    def _one(self, name: str) -> SSAValue | None:
        return getattr(self, name, None)

    def _many(self, name: str) -> tuple[SSAValue, ...]:
        return tuple(getattr(self, name, ()))

    def pipes(self) -> tuple[str, ...]:
        return ("MTE2", "MTE3")

    def core_type(self) -> str:
        return "CUBE"

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        values: list[SSAValue] = [getattr(self, name) for name in self.INS]
        for _, group in self.PRE_OUTS:
            if group != "postVecFuncOuts":
                values.extend(getattr(self, group))
        values.extend(v for v in (self._one("tilingParams"), self._one("bias"), self._one("descale")) if v is not None)
        return tuple(values)

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        extra = tuple(getattr(self, "postVecFuncOuts", ()))
        return (self._value("c"), *extra)

    def memref_reads(self) -> tuple[SSAValue, ...]:
        return memref_values(self.ins)

    # -- syntax -----------------------------------------------------------------------

    @classmethod
    def _tail(cls) -> tuple[tuple[str, str, _Kind], ...]:
        names = set(cls.get_irdl_definition().properties) | {n for n, _ in cls.get_irdl_definition().operands}
        return tuple(entry for entry in _TAIL if entry[1] in names)

    @classmethod
    def parse(cls, parser: Parser):
        props, attrs = cls._parse_attr_dict(parser)
        operands: dict[str, SSAValue | Sequence[SSAValue] | None] = {}
        operands.update(zip(cls.INS, parse_keyword_values(parser, "ins", len(cls.INS))))
        for keyword, group in cls.PRE_OUTS:
            operands[group] = parse_values_with_types(parser) if parser.parse_optional_keyword(keyword) else []
        (operands["c"],) = parse_keyword_values(parser, "outs", 1)
        for keyword, name, kind in cls._tail():
            if not parser.parse_optional_keyword(keyword):
                continue
            if kind == "group":
                operands[name] = parse_values_with_types(parser)
            elif kind == "unit":
                props[name] = UnitAttr()
            elif kind == "enum":
                parser.parse_punctuation("=")
                props[name] = parse_enum(parser, DescaleModeAttr)
            else:
                parser.parse_punctuation("=")
                operands[name] = parse_value_with_type(parser)
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            result_types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        return cls._make(operands, props, attrs, result_types)

    def print(self, printer: Printer) -> None:
        self._print_attr_dict(printer)
        print_keyword_values(printer, "ins", [getattr(self, name) for name in self.INS])
        for keyword, group in self.PRE_OUTS:
            if getattr(self, group):
                print_keyword_values(printer, keyword, getattr(self, group))
        print_keyword_values(printer, "outs", [self._value("c")])
        for keyword, name, kind in self._tail():
            self._print_clause(printer, keyword, name, kind)
        if self.results:
            printer.print_string(" -> ")
            printer.print_list([r.type for r in self.results], printer.print_attribute)

    def _print_clause(self, printer: Printer, keyword: str, name: str, kind: _Kind) -> None:
        if kind in ("unit", "enum"):
            value = self.properties.get(name)
            if value is None:
                return
            printer.print_string(f" {keyword}")
            if kind == "enum":
                printer.print_string(" = ")
                print_short(printer, value)
            return
        operand = getattr(self, name)
        if kind == "group":
            if operand:
                print_keyword_values(printer, keyword, operand)
        elif operand is not None:
            printer.print_string(f" {keyword} = ")
            print_value_with_type(printer, operand)

    # -- bishengir's checks, in its order and words -------------------------------------

    def verify_(self) -> None:
        self._verify_ranks()
        self._verify_descale()
        self._verify_bias()
        self._verify_tiling()

    def _verify_ranks(self) -> None:
        if len(shape_of(self._value("a")) or ()) != 2 or len(shape_of(self._value("b")) or ()) != 2:
            raise VerifyException("matrix A and matrix B must be 2D")

    def _channels(self) -> int:
        return (shape_of(self._value("b")) or (DYNAMIC_INDEX, DYNAMIC_INDEX))[1]

    def _verify_descale(self) -> None:
        mode = self.descaleMode
        if mode is None or mode.data == DescaleMode.DescaleNull:
            return
        descale = self._one("descale")
        if descale is None:
            raise VerifyException("The descaleMode is defined, descale params must be defined!")
        shape = shape_of(descale) or ()
        if len(shape) != 1:
            raise VerifyException("descale must must be 1D")
        size, channels = shape[0], self._channels()
        if DYNAMIC_INDEX in (size, channels):
            return
        if mode.data == DescaleMode.DescalePerTensor and size != 1:
            raise VerifyException("The descaleMode is DescalePerTensor, the size of descale is equal to 1")
        if mode.data == DescaleMode.DescalePerChannel and size != channels:
            raise VerifyException(
                "The descaleMode is DescalePerChannel, the size of descale is equal to the col size of B"
            )

    def _verify_bias(self) -> None:
        bias = self._one("bias")
        if bias is None:
            return
        shape = shape_of(bias) or ()
        if len(shape) != 1:
            raise VerifyException("bias must must be 1D")
        if DYNAMIC_INDEX not in (shape[0], self._channels()) and shape[0] != self._channels():
            raise VerifyException("The size of bias is equal to the col size of B")

    def _verify_tiling(self) -> None:
        explicit = (
            self._many("processSizes") or self._many("blockSizes") or self._one("swizzleOffset") is not None
            or self._one("swizzleDirection") is not None or self._one("epiloguePTiles") is not None
        )
        if self._one("tilingParams") is not None and explicit:
            raise VerifyException(
                "`TilingParams` and the other explicit tiling params cannot be set at the same time"
            )
        if self._many("blockSizes") and len(self._many("blockSizes")) != 3:
            raise VerifyException("The size of Blocksize should be 3. The order is blockM, blockN, blockK")
        if self._many("processSizes") and len(self._many("processSizes")) != 3:
            raise VerifyException("The size of ProcessSizes should be 3. The order is ProcessM, ProcessN, ProcessK")


@irdl_op_definition
class MatmulOp(_GlobalMmadOp):
    """`C = descale * (A x B + bias)` on global memory."""

    name = "hivm.hir.matmul"

    a = operand_def(MEMREF_OR_TENSOR)
    b = operand_def(MEMREF_OR_TENSOR)
    tilingParams = opt_operand_def(MEMREF_OR_TENSOR)
    bias = opt_operand_def(MEMREF_OR_TENSOR)
    descale = opt_operand_def(MEMREF_OR_TENSOR)
    blockSizes = var_operand_def(i64)
    processSizes = var_operand_def(i64)
    swizzleOffset = opt_operand_def(i64)
    swizzleDirection = opt_operand_def(i64)
    epiloguePTiles = opt_operand_def(i64)
    c = operand_def(MEMREF_OR_TENSOR)


@irdl_op_definition
class MixMatmulOp(_GlobalMmadOp):
    """A matmul fused with a vector epilogue function (`post_vector_func_ins`), or with
    communication (`comm_params`)."""

    name = "hivm.hir.mix_matmul"

    a = operand_def(MEMREF_OR_TENSOR)
    b = operand_def(MEMREF_OR_TENSOR)
    postVecFuncIns = var_operand_def(MEMREF_OR_TENSOR)
    workspaceIns = var_operand_def(MEMREF_OR_TENSOR)
    tilingParams = opt_operand_def(MEMREF_OR_TENSOR)
    commParams = opt_operand_def(MEMREF_OR_TENSOR)
    bias = opt_operand_def(MEMREF_OR_TENSOR)
    descale = opt_operand_def(MEMREF_OR_TENSOR)
    blockSizes = var_operand_def(i64)
    processSizes = var_operand_def(i64)
    swizzleOffset = opt_operand_def(i64)
    swizzleDirection = opt_operand_def(i64)
    epiloguePTiles = opt_operand_def(i64)
    c = operand_def(MEMREF_OR_TENSOR)

    PRE_OUTS: ClassVar[tuple[tuple[str, str], ...]] = (
        ("post_vector_func_ins", "postVecFuncIns"), ("workspace_ins", "workspaceIns"),
    )


@irdl_op_definition
class MixGroupMatmulOp(_GlobalMmadOp):
    """A mixture-of-experts matmul: `tokens_per_expert` splits B's rows between the experts
    of the 3-D A."""

    name = "hivm.hir.mix_group_matmul"

    a = operand_def(MEMREF_OR_TENSOR)
    b = operand_def(MEMREF_OR_TENSOR)
    tokens_per_expert = operand_def(MEMREF_OR_TENSOR)
    postVecFuncIns = var_operand_def(MEMREF_OR_TENSOR)
    postVecFuncOuts = var_operand_def(MEMREF_OR_TENSOR)
    workspaceIns = var_operand_def(MEMREF_OR_TENSOR)
    tilingParams = opt_operand_def(MEMREF_OR_TENSOR)
    commParams = opt_operand_def(MEMREF_OR_TENSOR)
    bias = opt_operand_def(MEMREF_OR_TENSOR)
    descale = opt_operand_def(MEMREF_OR_TENSOR)
    blockSizes = var_operand_def(i64)
    processSizes = var_operand_def(i64)
    swizzleOffset = opt_operand_def(i64)
    swizzleDirection = opt_operand_def(i64)
    epiloguePTiles = opt_operand_def(i64)
    c = operand_def(MEMREF_OR_TENSOR)

    INS: ClassVar[tuple[str, ...]] = ("a", "b", "tokens_per_expert")
    PRE_OUTS: ClassVar[tuple[tuple[str, str], ...]] = (
        ("post_vector_func_ins", "postVecFuncIns"), ("post_vector_func_outs", "postVecFuncOuts"),
        ("workspace_ins", "workspaceIns"),
    )

    def _verify_ranks(self) -> None:
        if len(shape_of(self._value("a")) or ()) != 3:
            raise VerifyException("matrix A must be 3D")
        if len(shape_of(self._value("b")) or ()) != 2:
            raise VerifyException("matrix B must be 2D")
        if len(shape_of(self._value("tokens_per_expert")) or ()) != 1:
            raise VerifyException("matrix TokensPerExpert must be 1D")


GLOBAL_MMAD_OPS = (MatmulOp, MixMatmulOp, MixGroupMatmulOp)
