"""Vector ops on the unified buffer (PIPE_V): elementwise, vcast, vbrc, vreduce."""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BoolAttr,
    DenseArrayBase,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ascend_mlir import hardware
from ascend_mlir.dialects.hivm.attrs import (
    ReduceOpAttr,
    ReduceOpKind,
    RoundMode,
    RoundModeAttr,
    TypeFn,
    TypeFnAttr,
)
from ascend_mlir.dialects.hivm.interface import (
    MEMREF_OR_TENSOR,
    DestinationStyleResults,
    array_values,
    element_type_of,
    i64_array,
    is_memref,
    is_shaped,
    scope_of,
    scope_text,
    scope_unassigned,
    shape_of,
    verify_same_element_type,
)
from ascend_mlir.dialects.hivm.syntax import (
    Clause,
    HivmOp,
    InsOutsOp,
    parse_keyword_values,
    print_keyword_values,
    parse_clauses,
    parse_enum,
    parse_paren_value,
    parse_result_types,
    parse_values_with_types,
    print_clauses,
    print_paren_value,
    print_result_types,
    print_short,
)

# ---------------------------------------------------------------------------
# Vector ops
# ---------------------------------------------------------------------------


class _VectorOp(HivmOp, ABC):
    # the tensor form: the new values of the tensor outputs
    result = var_result_def(TensorType)

    traits = traits_def(DestinationStyleResults())

    def pipes(self) -> tuple[str, ...]:
        return ("V",)

    def _verify_ub_operands(self) -> None:
        for role, values in (("input", self.ins), ("output", self.outs)):
            for value in values:
                if is_memref(value) and scope_of(value) != "ub" and not scope_unassigned(value):
                    raise VerifyException(
                        f"vector {role} must be in ub, got {scope_text(value)} (vector ops work on the unified buffer)"
                    )


class _ElementwiseBase(_VectorOp, ABC):
    """`attr-dict ins(...) outs(...) <clauses> [broadcast = [..]] [transpose = [..]]`; the
    ops of bishengir's build without a temp_buffer operand (vsin, vcmp, ...) derive from
    this, the others from _ElementwiseOp."""

    src = var_operand_def()
    dst = var_operand_def(MEMREF_OR_TENSOR)
    transpose = prop_def(DenseArrayBase, default_value=i64_array([]))
    broadcast = prop_def(DenseArrayBase, default_value=i64_array([]))

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("transpose", "broadcast")
    ARITY: ClassVar[int] = 1
    CLAUSES: ClassVar[tuple[Clause, ...]] = (Clause("broadcast", "ints"), Clause("transpose", "ints"))

    @property
    def temp(self) -> SSAValue | None:
        """The temp_buffer operand of ops that have one."""
        return None

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
            "broadcast": i64_array(broadcast),
            "transpose": i64_array(transpose),
        }
        props.update(properties or {})
        optional_groups = [[] for _ in self.get_irdl_definition().operands[2:]]
        super().__init__(operands=[list(ins), list(outs), *optional_groups], properties=props)

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        return tuple(self.src)

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return tuple(self.dst)

    @classmethod
    def operand_group_bounds(cls) -> dict[str, tuple[int, int]]:
        """Element counts of the variadic groups (src may mix memrefs and scalars)."""
        return {"src": (cls.ARITY, cls.ARITY), "dst": (1, 1)}

    def verify_(self) -> None:
        if len(self.src) != self.ARITY or len(self.dst) != 1:
            raise VerifyException(
                f"expects {self.ARITY} input(s) and 1 output, got {len(self.src)} and {len(self.dst)}"
            )
        self._verify_ub_operands()
        first = self.src[0]
        if not is_shaped(first):
            raise VerifyException(f"the first input must be a memref or tensor (vector operand), got {first.type}")
        temp = self.temp
        if temp is not None and scope_of(temp) != "ub" and not scope_unassigned(temp):
            raise VerifyException(f"temp_buffer must be in ub, got {scope_text(temp)}")
        dst_shape = shape_of(self.dst[0])
        assert dst_shape is not None
        broadcast, transpose = self._verified_layout(len(dst_shape))
        # out.shape[i] == in.shape[transpose[i]]: the input shape the output implies
        expected = list(dst_shape)
        for out_axis, in_axis in enumerate(transpose):
            expected[in_axis] = dst_shape[out_axis]
        for index, value in enumerate(self.src):
            if not is_shaped(value):
                if index > 0:
                    self._verify_scalar_operand(value)
                continue
            self._verify_vector_operand(value, expected, broadcast)
        self._verify_element_types()

    def _verify_element_types(self) -> None:
        """The element types bishengir's verifier allows for this op (hardware.py)."""
        source, dest = str(element_type_of(self.src[0])), str(element_type_of(self.dst[0]))
        if self._may_cast():
            problem = hardware.cast_error(source, dest)
        else:
            problem = hardware.vector_type_error(self.name.removeprefix("hivm.hir.v"), source)
        if problem is not None:
            raise VerifyException(problem)

    def _verified_layout(self, rank: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(broadcast, transpose) once checked against the output rank."""
        broadcast = array_values(self.broadcast)
        transpose = array_values(self.transpose)
        if broadcast and transpose:
            raise VerifyException("broadcast and transpose cannot both be set")
        for dim in broadcast + transpose:
            if not 0 <= dim < rank:
                raise VerifyException(f"dimension {dim} is out of range for rank {rank}")
        if transpose and sorted(transpose) != list(range(rank)):
            raise VerifyException(f"transpose {list(transpose)} is not a permutation of 0..{rank - 1}")
        if transpose and transpose[-1] != rank - 1:
            raise VerifyException(f"transpose {list(transpose)} moves the last dimension (the hardware keeps it in place)")
        return broadcast, transpose

    def _verify_scalar_operand(self, value: SSAValue) -> None:
        dst = self.dst[0]
        if value.type != element_type_of(dst) and not self._may_cast():
            raise VerifyException(
                f"scalar operand type {value.type} differs from the element type {element_type_of(dst)}"
            )

    def _verify_vector_operand(self, value: SSAValue, expected: list[int], broadcast: tuple[int, ...]) -> None:
        """Same shape as the output implies (size 1 on a broadcast dim) and, unless the
        op casts, the output's element type."""
        dst = self.dst[0]
        dst_shape = shape_of(dst) or ()
        rank = len(dst_shape)
        shape = shape_of(value)
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
        if not self._may_cast() and element_type_of(value) != element_type_of(dst):
            raise VerifyException(
                f"element types differ ({element_type_of(value)} vs {element_type_of(dst)})"
            )

    def _may_cast(self) -> bool:
        return False

    @classmethod
    def parse(cls, parser: Parser):
        props, attrs = cls._parse_attr_dict(parser)
        operands: dict[str, SSAValue | Sequence[SSAValue] | None] = {}
        if parser.parse_optional_keyword("ins"):
            operands["src"] = parse_values_with_types(parser)
        if parser.parse_optional_keyword("outs"):
            operands["dst"] = parse_values_with_types(parser)
        parse_clauses(parser, cls.CLAUSES, props, operands)
        return cls._make(operands, props, attrs, parse_result_types(parser))

    def print(self, printer: Printer) -> None:
        self._print_attr_dict(printer)
        if self.src:
            print_keyword_values(printer, "ins", self.src)
        if self.dst:
            print_keyword_values(printer, "outs", self.dst)
        print_clauses(printer, self, self.CLAUSES)
        print_result_types(printer, self.results)


class _ElementwiseOp(_ElementwiseBase, ABC):
    """`attr-dict ins(...) outs(...) [temp_buffer(...)] <extra> [broadcast = [..]] [transpose = [..]]`."""

    src = var_operand_def()
    dst = var_operand_def(MEMREF_OR_TENSOR)
    temp_buffer = opt_operand_def(MEMREF_OR_TENSOR)

    # after `ins(...) outs(...)`: vcast adds its round_mode and cast enums after temp_buffer
    CLAUSES: ClassVar[tuple[Clause, ...]] = (
        Clause("temp_buffer", "paren"), Clause("broadcast", "ints"), Clause("transpose", "ints"),
    )

    @property
    def temp(self) -> SSAValue | None:
        return self.temp_buffer


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
    dst = var_operand_def(MEMREF_OR_TENSOR)
    temp_buffer = opt_operand_def(MEMREF_OR_TENSOR)
    transpose = prop_def(DenseArrayBase, default_value=i64_array([]))
    broadcast = prop_def(DenseArrayBase, default_value=i64_array([]))
    round_mode = prop_def(RoundModeAttr, default_value=RoundModeAttr(RoundMode.RINT))
    cast = prop_def(TypeFnAttr, default_value=TypeFnAttr(TypeFn.cast_signed))

    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("transpose", "broadcast", "round_mode", "cast")
    CLAUSES: ClassVar[tuple[Clause, ...]] = (
        Clause("temp_buffer", "paren"), Clause("round_mode", "enum", RoundModeAttr), Clause("cast", "enum", TypeFnAttr),
        Clause("broadcast", "ints"), Clause("transpose", "ints"),
    )
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
class VBrcOp(_VectorOp, InsOutsOp):
    """Broadcast a scalar, or a memref with size-1 `broadcast_dims`, to the output shape."""

    name = "hivm.hir.vbrc"

    src = operand_def()
    dst = operand_def(MEMREF_OR_TENSOR)
    temp_buffer = opt_operand_def(MEMREF_OR_TENSOR)
    broadcast_dims = prop_def(DenseArrayBase, default_value=i64_array([]))

    FORMAT_PROPS: ClassVar[tuple[str, ...]] = ("broadcast_dims",)

    def __init__(self, src: SSAValue | Operation, dst: SSAValue | Operation, *, broadcast_dims: Sequence[int] = ()):
        super().__init__(operands=[src, dst, []], properties={"broadcast_dims": i64_array(broadcast_dims)})

    def fills_l1(self) -> bool:
        """A broadcast into cbuf (L1): bishengir zero-fills the L1 tiles of masked loads so,
        and runs it on the cube core's PIPE_MTE2 (its VBrcOp::getPipe), not the vector unit."""
        return scope_of(self.dst) == "cbuf"

    def pipes(self) -> tuple[str, ...]:
        return ("MTE2",) if self.fills_l1() else ("V",)

    def core_type(self) -> str:
        return "CUBE" if self.fills_l1() else "VECTOR"

    def verify_(self) -> None:
        if not self.fills_l1():  # bishengir-opt accepts any broadcast into cbuf (on MTE2)
            self._verify_ub_operands()
        dims = array_values(self.broadcast_dims)
        dst_shape = shape_of(self.dst)
        assert dst_shape is not None
        rank = len(dst_shape)
        if len(set(dims)) != len(dims):
            raise VerifyException(f"broadcast_dims {list(dims)} has duplicates")
        for dim in dims:
            if not 0 <= dim < rank:
                raise VerifyException(f"broadcast dim {dim} is out of range for rank {rank}")
        if not is_shaped(self.src):
            if dims:
                raise VerifyException("a scalar source takes no broadcast_dims")
            if self.src.type != element_type_of(self.dst):
                raise VerifyException(
                    f"scalar type {self.src.type} differs from the element type {element_type_of(self.dst)}"
                )
            return
        self._verify_memref_source(dims, dst_shape)

    def _verify_memref_source(self, dims: tuple[int, ...], dst_shape: Sequence[int]) -> None:
        """Same rank and element type as the destination, size 1 on every broadcast dim."""
        verify_same_element_type(self, self.src, self.dst, "source and destination")
        src_shape = shape_of(self.src)
        assert src_shape is not None
        rank = len(dst_shape)
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

    CLAUSES: ClassVar[tuple[Clause, ...]] = (Clause("temp_buffer", "paren"), Clause("broadcast_dims", "ints"))


@irdl_op_definition
class VReduceOp(_VectorOp):
    """`vreduce <sum|max|min|prod...> ins(%s) outs(%d) reduce_dims = [..]` (reduced dims keep size 1)."""

    name = "hivm.hir.vreduce"

    src = operand_def(MEMREF_OR_TENSOR)
    dst = var_operand_def(MEMREF_OR_TENSOR)
    temp_buffer = opt_operand_def(MEMREF_OR_TENSOR)
    indices = opt_operand_def(MEMREF_OR_TENSOR)
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
            properties={"arith": ReduceOpAttr(kind), "reduce_dims": i64_array(reduce_dims)},
        )

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        return (self.src,)

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return tuple(self.dst) + ((self.indices,) if self.indices is not None else ())

    @classmethod
    def operand_group_bounds(cls) -> dict[str, tuple[int, int]]:
        """Values, and the indices of the `*_with_index_*` kinds, differ in element type."""
        return {"dst": (1, 2)}

    def verify_(self) -> None:
        self._verify_ub_operands()
        with_index = self.arith.data.value.endswith(("_with_index_left", "_with_index_right"))
        if len(self.dst) != (2 if with_index else 1):
            raise VerifyException(
                f"<{self.arith.data.value}> expects {2 if with_index else 1} output(s)"
                f"{' (values and indices)' if with_index else ''}, got {len(self.dst)}"
            )
        dst = self.dst[0]
        verify_same_element_type(self, self.src, dst, "source and destination")
        if with_index and not isinstance(element_type_of(self.dst[1]), IntegerType):
            raise VerifyException(f"the index output must have an integer element type, got {element_type_of(self.dst[1])}")
        src_shape = shape_of(self.src)
        assert src_shape is not None
        rank = len(src_shape)
        dims = array_values(self.reduce_dims)
        if not dims:
            raise VerifyException("reduce_dims must not be empty")
        if len(set(dims)) != len(dims):
            raise VerifyException(f"reduce_dims {list(dims)} has duplicates")
        for dim in dims:
            if not 0 <= dim < rank:
                raise VerifyException(f"reduce dim {dim} is out of range for rank {rank}")
        for out in self.dst:
            dst_shape = shape_of(out)
            assert dst_shape is not None
            if len(dst_shape) != rank:
                raise VerifyException(f"destination rank {len(dst_shape)} differs from source rank {rank}")
            for axis, (got, full) in enumerate(zip(dst_shape, src_shape)):
                want = 1 if axis in dims else full
                if got != want and DYNAMIC_INDEX not in (got, want):
                    raise VerifyException(f"destination size on dim {axis} must be {want}, got {got}")

    CLAUSES: ClassVar[tuple[Clause, ...]] = (
        Clause("temp_buffer", "paren"), Clause("unsigned_src", "bool"), Clause("reduce_dims", "ints", required=True),
    )

    @classmethod
    def parse(cls, parser: Parser) -> VReduceOp:
        props, attrs = cls._parse_attr_dict(parser)
        props["arith"] = parse_enum(parser, ReduceOpAttr)
        operands: dict[str, SSAValue | Sequence[SSAValue] | None] = {"src": parse_paren_value(parser, "ins")}
        parse_clauses(parser, (Clause("indices", "paren"),), props, operands)
        operands["dst"] = parse_keyword_values(parser, "outs")
        parse_clauses(parser, cls.CLAUSES, props, operands)
        return cls._make(operands, props, attrs, parse_result_types(parser))

    def print(self, printer: Printer) -> None:
        self._print_attr_dict(printer)
        printer.print_string(" ")
        print_short(printer, self.arith)
        print_paren_value(printer, "ins", self.src)
        print_clauses(printer, self, (Clause("indices", "paren"),))
        print_keyword_values(printer, "outs", self.dst)
        print_clauses(printer, self, self.CLAUSES)
        print_result_types(printer, self.results)

