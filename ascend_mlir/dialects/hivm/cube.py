"""The cube ops mmadL1, C (cc) = A (cbuf) x B (cbuf) [+ C], and batchMmadL1, the same
for each index of a leading batch axis (bishengir's HIVM_LocalMmadOp: one syntax)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    ArrayAttr,
    BFloat16Type,
    Float16Type,
    Float32Type,
    IndexType,
    IntegerType,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ascend_mlir.dialects.hivm.attrs import (
    UnitFlagAttr,
)
from ascend_mlir.dialects.hivm.interface import (
    MEMREF_OR_TENSOR,
    DestinationStyleResults,
    constant_int,
    memref_values,
    element_type_of,
    shape_of,
    verify_scope,
)
from ascend_mlir.dialects.hivm.syntax import (
    HivmOp,
    parse_paren_value,
    parse_result_types,
    parse_unit_flags,
    parse_values_with_types,
    print_paren_value,
    print_result_types,
    print_unit_flags,
    print_values_with_types,
)

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


def _matrix_shape(shape) -> tuple[int, int]:
    """The matrix a buffer holds: rank 2 as is; rank 4 is bishengir's NZ fractal layout
    [col blocks][row blocks][rows per block][cols per block]."""
    if len(shape) == 2:
        return shape[0], shape[1]
    c1, r1, r0, c0 = shape

    def times(x: int, y: int) -> int:
        return DYNAMIC_INDEX if DYNAMIC_INDEX in (x, y) else x * y

    return times(r1, r0), times(c1, c0)


def _sizes_clash(x: int, y: int) -> bool:
    """Two static sizes that differ (a dynamic size clashes with nothing)."""
    return x != DYNAMIC_INDEX and y != DYNAMIC_INDEX and x != y


class _LocalMmadOp(HivmOp):
    """bishengir's HIVM_LocalMmadOp: operands, syntax, pipes and memory effects."""

    a = operand_def(MEMREF_OR_TENSOR)
    b = operand_def(MEMREF_OR_TENSOR)
    init_condition = operand_def(IntegerType)
    real_m = operand_def(IndexType)
    real_k = operand_def(IndexType)
    real_n = operand_def(IndexType)
    c = operand_def(MEMREF_OR_TENSOR)
    sync_related_args = var_operand_def(I64)
    unit_flag_cond = var_operand_def(IntegerType)
    per_channel_bias = opt_operand_def(MEMREF_OR_TENSOR)
    # the tensor form: the new value of a tensor C
    result_tensor = opt_result_def(TensorType)

    a_transpose = opt_prop_def(UnitAttr)
    b_transpose = opt_prop_def(UnitAttr)
    enable_HF32 = opt_prop_def(UnitAttr)
    enable_I4 = opt_prop_def(UnitAttr)
    unit_flag_mode = opt_prop_def(ArrayAttr[UnitFlagAttr])

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(DestinationStyleResults())
    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("unit_flag_mode",)

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        return (self.a, self.b, self.init_condition, self.real_m, self.real_k, self.real_n)

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return (self.c,)

    def pipes(self) -> tuple[str, ...]:
        return ("MTE1", "M")

    def init_is_constant(self) -> bool | None:
        """True/False when the init condition is a constant, None when it is computed."""
        value = constant_int(self.init_condition)
        return None if value is None else bool(value)

    def memref_reads(self) -> tuple[SSAValue, ...]:
        reads = [self.a, self.b]
        if self.per_channel_bias is not None:
            reads.append(self.per_channel_bias)
        if self.init_is_constant() is not True:
            reads.append(self.c)  # accumulates into C unless it is (re)initialised
        return memref_values(reads)

    def memref_writes(self) -> tuple[SSAValue, ...]:
        return memref_values((self.c,))

    def _verify_sync_related_args(self) -> None:
        if len(self.sync_related_args) not in (0, MMAD_SYNC_RELATED_ARGS):
            raise VerifyException(
                f"sync_related_args must be empty or {MMAD_SYNC_RELATED_ARGS} i64 values, got {len(self.sync_related_args)}"
            )

    def _verify_operands(self, rank: int, what: str) -> tuple[int, int, int]:
        """Scopes, init condition, (M, K, N) and element types of A x B -> C, whose
        operands are rank-`rank` memrefs (`what` says which) or rank-`rank + 2` NZ fractals."""
        rule = f"{self.name.removeprefix('hivm.hir.')} reads A and B from cbuf and accumulates C in cc"
        verify_scope(self, self.a, "operand A", ("cbuf",), rule)
        verify_scope(self, self.b, "operand B", ("cbuf",), rule)
        verify_scope(self, self.c, "operand C", ("cc",), rule)
        if self.init_condition.type != IntegerType(1):
            raise VerifyException(f"init condition must be i1, got {self.init_condition.type}")
        m, k, n = self._verified_mkn(rank, what)
        for label, value, bound in (("real_m", self.real_m, m), ("real_k", self.real_k, k), ("real_n", self.real_n, n)):
            known = constant_int(value)
            if known is not None and bound != DYNAMIC_INDEX and not 0 < known <= bound:
                raise VerifyException(f"{label} = {known} is outside 1..{bound}")
        self._verify_element_types()
        return m, k, n

    def _verified_mkn(self, rank: int, what: str) -> tuple[int, int, int]:
        """(M, K, N) of A x B (after the transposes), checked against each other and C."""
        shapes = [shape_of(v) for v in (self.a, self.b, self.c)]
        batch = rank - 2
        for label, shape in zip("ABC", shapes):
            if shape is None or len(shape) not in (rank, rank + 2):
                raise VerifyException(
                    f"operand {label} must be a {what} (or rank-{rank + 2} NZ fractals, as bishengir plans them)"
                )
        shapes = [_matrix_shape(shape[batch:]) for shape in cast(list[tuple[int, ...]], shapes)]
        a_shape, b_shape, c_shape = cast(list[tuple[int, int]], shapes)
        m, ka = (a_shape[1], a_shape[0]) if self.a_transpose else a_shape
        kb, n = (b_shape[1], b_shape[0]) if self.b_transpose else b_shape
        if _sizes_clash(ka, kb):
            raise VerifyException(
                f"K of A ({ka}) and K of B ({kb}) differ"
                f" (a_transpose={self.a_transpose is not None}, b_transpose={self.b_transpose is not None})"
            )
        if _sizes_clash(m, c_shape[0]) or _sizes_clash(n, c_shape[1]):
            raise VerifyException(
                f"C is {c_shape[0]}x{c_shape[1]} but A x B is {m}x{n}"
            )
        return m, ka, n

    def _verify_element_types(self) -> None:
        ta, tb, tc = (element_type_of(v) for v in (self.a, self.b, self.c))
        acc = _mmad_accumulator(ta, tb)
        if acc is None:
            raise VerifyException(
                f"unsupported element types {ta} x {tb} (f16/bf16/f32 x same -> f32, i8 x i8 -> i32)"
            )
        if tc != acc:
            raise VerifyException(f"{ta} x {tb} accumulates in {acc}, but C is {tc}")
        if self.enable_HF32 is not None and not isinstance(ta, Float32Type):
            raise VerifyException(f"enable_HF32 needs f32 operands, got {ta}")

    @classmethod
    def parse(cls, parser: Parser):
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
        c = parse_paren_value(parser, "outs")
        operands: dict[str, SSAValue | Sequence[SSAValue] | None] = dict(
            zip(("a", "b", "init_condition", "real_m", "real_k", "real_n"), values[:6])
        )
        operands["c"] = c
        if len(values) == 7:
            operands["per_channel_bias"] = values[6]
        if parser.parse_optional_keyword("sync_related_args"):
            operands["sync_related_args"] = parse_values_with_types(parser)
        parse_unit_flags(parser, props, operands)
        return cls._make(operands, props, attrs, parse_result_types(parser))

    def print(self, printer: Printer) -> None:
        self._print_attr_dict(printer)
        values = list(self.ins)
        if self.per_channel_bias is not None:
            values.append(self.per_channel_bias)
        printer.print_string(" ins")
        print_values_with_types(printer, values)
        print_paren_value(printer, "outs", self.c)
        if self.sync_related_args:
            printer.print_string(" sync_related_args")
            print_values_with_types(printer, self.sync_related_args)
        print_unit_flags(printer, self.unit_flag_mode, self.unit_flag_cond)
        print_result_types(printer, self.results)


@irdl_op_definition
class MmadL1Op(_LocalMmadOp):
    """C (cc) = init ? A x B : C + A x B, A and B in cbuf; L1 -> L0A/L0B moves (MTE1) are implied."""

    name = "hivm.hir.mmadL1"

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

    def verify_(self) -> None:
        self._verify_operands(2, "rank-2 memref")
        self._verify_sync_related_args()


@irdl_op_definition
class BatchMmadL1Op(_LocalMmadOp):
    """For each b of the leading batch axis: C[b] = init ? A[b] x B[b] : C[b] + A[b] x B[b]
    (bishengir's batchMmadL1: A, B and C of rank 3, the batch axis first). bishengir-opt
    checks only the count of sync_related_args; the scopes, sizes and element types of
    mmadL1 are checked here for each batch, and the batch sizes must agree."""

    name = "hivm.hir.batchMmadL1"

    def verify_(self) -> None:
        self._verify_operands(3, "rank-3 memref (the batch axis first)")
        batches = {shape[0] for v in (self.a, self.b, self.c) if (shape := shape_of(v)) and shape[0] != DYNAMIC_INDEX}
        if len(batches) > 1:
            raise VerifyException(f"the batch sizes of A, B and C differ ({sorted(batches)})")
        self._verify_sync_related_args()
