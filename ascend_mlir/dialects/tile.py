"""The `tile` dialect: what kernel authors write.

Destination-passing style on memrefs whose memory space is a HIVM address space
(`#hivm.address_space<gm|cbuf|cc|ub>`), like linalg and HIVM themselves. A tile op says
*what* moves or is computed; `convert-tile-to-hivm` picks the DMA path / compute op per
scope pair, and the scheduling passes decide *when*.

Function attributes: `tile.kernel` (unit) marks a device kernel, `tile.grid = N : i64`
its block count. Loop attribute: `tile.num_stages = N : i64` bounds the buffer versions
the modulo scheduler may give to buffers used inside the loop.
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    UnitAttr,
    f32,
    i1,
    i32,
    i64,
)
from xdsl.dialects.utils import DYNAMIC_INDEX
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from ascend_mlir import hardware

# Attribute names used on funcs and loops (kept here so every pass spells them alike).
KERNEL_ATTR = "tile.kernel"
GRID_ATTR = "tile.grid"
NUM_STAGES_ATTR = "tile.num_stages"


def _bool_value(value: Attribute | None) -> bool | None:
    """The value of an i1 attribute (`true`/`false`), None for any other attribute."""
    if isinstance(value, IntegerAttr) and value.type == i1:
        return value.value.data != 0
    return None


def is_kernel(op: Operation) -> bool:
    """Whether `op` is marked a kernel: `tile.kernel` (unit) or `tile.kernel = true`;
    `tile.kernel = false` marks it as not one. Any other value is refused at parse time
    (`kernel_attr_problem`), never taken as a mark."""
    value = op.attributes.get(KERNEL_ATTR)
    return isinstance(value, UnitAttr) or _bool_value(value) is True


def kernel_attr_problem(op: Operation) -> str | None:
    """What is wrong with `op`'s `tile.kernel` mark (a value other than unit or a boolean:
    `tile.kernel = "no"` was read as a kernel, since only its presence counted) or its
    `tile.grid` (not a positive integer)."""
    value = op.attributes.get(KERNEL_ATTR)
    if value is not None and not isinstance(value, UnitAttr) and _bool_value(value) is None:
        return f"'{KERNEL_ATTR}' must be a unit attribute or a boolean (true/false), got {value}"
    if is_kernel(op) and op.regions and not op.regions[0].blocks:
        # compiled into a device entry with no code (hacc.entry on a declaration)
        return f"'{KERNEL_ATTR}' marks a declaration: a kernel needs a body"
    grid = op.attributes.get(GRID_ATTR)
    if grid is not None and not (isinstance(grid, IntegerAttr) and grid.type != i1 and grid.value.data >= 1):
        # the reference refused a string or float grid with no location
        return f"'{GRID_ATTR}' must be a positive integer, got {grid}"
    return None


# --------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------


def _scope(value: SSAValue) -> str | None:
    from ascend_mlir.dialects.hivm import scope_of

    return scope_of(value.type)


def _memref(op: Operation, value: SSAValue, role: str) -> MemRefType:
    if not isinstance(value.type, MemRefType):
        raise VerifyException(f"{role} must be a memref, got {value.type}")
    return value.type


def _memref_in(op: Operation, value: SSAValue, role: str, scopes: Sequence[str]) -> MemRefType:
    memref = _memref(op, value, role)
    scope = _scope(value)
    if scope not in scopes:
        wanted = " or ".join(scopes)
        raise VerifyException(
            f"{role} must be in {wanted}, got "
            f"{scope if scope is not None else 'no hivm address space'}"
        )
    return memref


def _shape_text(shape: Sequence[int]) -> str:
    return "x".join("?" if d == DYNAMIC_INDEX else str(d) for d in shape) or "scalar"


def _dims_match(a: int, b: int) -> bool:
    return a == b or a == DYNAMIC_INDEX or b == DYNAMIC_INDEX


def _same_shape(op: Operation, a: MemRefType, b: MemRefType, what: str) -> None:
    sa, sb = a.get_shape(), b.get_shape()
    if len(sa) != len(sb) or not all(_dims_match(x, y) for x, y in zip(sa, sb)):
        raise VerifyException(
            f"{what} shapes differ: {_shape_text(sa)} vs {_shape_text(sb)}"
        )


def _same_element_type(op: Operation, a: Attribute, b: Attribute, what: str) -> None:
    if a != b:
        raise VerifyException(f"{what} element types differ: {a} vs {b}")


def _check_dims(op: Operation, dims: Sequence[int], rank: int) -> None:
    for d in dims:
        if not 0 <= d < rank:
            raise VerifyException(f"dim {d} out of range for rank {rank}")
    if len(set(dims)) != len(dims):
        raise VerifyException(f"dims must be unique, got {list(dims)}")
    if not dims:
        raise VerifyException("needs at least one dim")


# --------------------------------------------------------------------------------------
# base classes
# --------------------------------------------------------------------------------------


class TileOp(IRDLOperation, ABC):
    """A destination-passing tile op: reads `ins`, writes `outs` (memrefs and scalars)."""

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        raise NotImplementedError

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        raise NotImplementedError


class SourceDestOp(TileOp, ABC):
    """A tile op that reads its `source` operand and writes its `dest` operand (each op
    defines both)."""

    if TYPE_CHECKING:
        source: SSAValue
        dest: SSAValue

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        return (self.source,)

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return (self.dest,)


# Legal (source scope, destination scope) pairs of tile.copy and the hardware path.
COPY_PATHS: dict[tuple[str, str], str] = {
    pair: f"{hardware.COPY_PATHS[pair].op} ({hardware.COPY_PATHS[pair].pipe})"
    for pair in hardware.TILE_COPY_PATHS
}


@irdl_op_definition
class CopyOp(SourceDestOp):
    """Move a tile between two memories; the scope pair selects the DMA path.

    From cc to ub the destination may be half as tall as the source: the dual copy that
    splits the accumulator rows between the two vector cores.
    """

    name = "tile.copy"

    source = operand_def(MemRefType)
    dest = operand_def(MemRefType)

    assembly_format = (
        "attr-dict `ins` `(` $source `:` type($source) `)` `outs` `(` $dest `:` type($dest) `)`"
    )

    def __init__(self, source: SSAValue | Operation, dest: SSAValue | Operation):
        super().__init__(operands=[source, dest])

    @property
    def scopes(self) -> tuple[str | None, str | None]:
        return _scope(self.source), _scope(self.dest)

    def is_dual(self) -> bool:
        """A cc -> ub copy whose destination has half the rows (one half per vector core)."""
        src, dst = self.source.type, self.dest.type
        assert isinstance(src, MemRefType) and isinstance(dst, MemRefType)
        if self.scopes != ("cc", "ub"):
            return False
        ss, ds = src.get_shape(), dst.get_shape()
        return (
            len(ss) == len(ds) >= 1
            and ss[0] != DYNAMIC_INDEX
            and ds[0] != DYNAMIC_INDEX
            and ss[0] == 2 * ds[0]
            and ss[1:] == ds[1:]
        )

    def verify_(self) -> None:
        src, dst = self.scopes
        for role, scope in (("source", src), ("dest", dst)):
            if scope is None:
                raise VerifyException(f"{role} must be a memref in a hivm address space")
        if (src, dst) not in COPY_PATHS:
            legal = ", ".join(f"{a}->{b}" for a, b in COPY_PATHS)
            raise VerifyException(
                f"has no DMA path from {src} to {dst} (legal: {legal})"
            )
        st, dt = _memref(self, self.source, "source"), _memref(self, self.dest, "dest")
        _same_element_type(self, st.element_type, dt.element_type, "source and dest")
        if not self.is_dual():
            _same_shape(self, st, dt, "source and dest")


class ElementwiseOp(TileOp, ABC):
    """Base of the vector elementwise ops: every memref operand lives in ub."""


class BinaryOp(ElementwiseOp, ABC):
    """`dst = lhs <op> rhs`; rhs is a ub memref of the same shape or a scalar."""

    lhs = operand_def(MemRefType)
    rhs = operand_def(AnyAttr())
    dest = operand_def(MemRefType)

    assembly_format = (
        "attr-dict `ins` `(` $lhs `,` $rhs `:` type($lhs) `,` type($rhs) `)` "
        "`outs` `(` $dest `:` type($dest) `)`"
    )

    def __init__(
        self, lhs: SSAValue | Operation, rhs: SSAValue | Operation, dest: SSAValue | Operation
    ):
        super().__init__(operands=[lhs, rhs, dest])

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        return (self.lhs, self.rhs)

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return (self.dest,)

    def rhs_is_scalar(self) -> bool:
        return not isinstance(self.rhs.type, MemRefType)

    def verify_(self) -> None:
        lt = _memref_in(self, self.lhs, "lhs", ("ub",))
        dt = _memref_in(self, self.dest, "dest", ("ub",))
        _same_shape(self, lt, dt, "lhs and dest")
        _same_element_type(self, lt.element_type, dt.element_type, "lhs and dest")
        if self.rhs_is_scalar():
            if self.rhs.type != lt.element_type:
                raise VerifyException(
                    f"scalar rhs type {self.rhs.type} differs from element "
                    f"type {lt.element_type}"
                )
        else:
            rt = _memref_in(self, self.rhs, "rhs", ("ub",))
            _same_shape(self, lt, rt, "lhs and rhs")
            _same_element_type(self, lt.element_type, rt.element_type, "lhs and rhs")


@irdl_op_definition
class AddOp(BinaryOp):
    name = "tile.add"


@irdl_op_definition
class SubOp(BinaryOp):
    name = "tile.sub"


@irdl_op_definition
class MulOp(BinaryOp):
    name = "tile.mul"


@irdl_op_definition
class DivOp(BinaryOp):
    name = "tile.div"


@irdl_op_definition
class MaxOp(BinaryOp):
    name = "tile.max"


@irdl_op_definition
class MinOp(BinaryOp):
    name = "tile.min"


class UnaryOp(ElementwiseOp, SourceDestOp, ABC):
    """`dst = f(src)` elementwise, same shape; same element type unless it is a cast."""

    source = operand_def(MemRefType)
    dest = operand_def(MemRefType)

    assembly_format = (
        "attr-dict `ins` `(` $source `:` type($source) `)` `outs` `(` $dest `:` type($dest) `)`"
    )

    SAME_ELEMENT_TYPE: ClassVar[bool] = True

    def __init__(self, source: SSAValue | Operation, dest: SSAValue | Operation):
        super().__init__(operands=[source, dest])

    def verify_(self) -> None:
        st = _memref_in(self, self.source, "source", ("ub",))
        dt = _memref_in(self, self.dest, "dest", ("ub",))
        _same_shape(self, st, dt, "source and dest")
        if self.SAME_ELEMENT_TYPE:
            _same_element_type(self, st.element_type, dt.element_type, "source and dest")
            problem = hardware.vector_type_error(self.name.removeprefix("tile."), str(st.element_type))
        elif st.element_type == dt.element_type:
            raise VerifyException(
                f"source and dest element types must differ, both are "
                f"{st.element_type}"
            )
        else:
            problem = hardware.cast_error(str(st.element_type), str(dt.element_type))
        if problem is not None:
            raise VerifyException(problem)


@irdl_op_definition
class ExpOp(UnaryOp):
    name = "tile.exp"


@irdl_op_definition
class LnOp(UnaryOp):
    name = "tile.ln"


@irdl_op_definition
class ReluOp(UnaryOp):
    name = "tile.relu"


@irdl_op_definition
class AbsOp(UnaryOp):
    name = "tile.abs"


@irdl_op_definition
class SqrtOp(UnaryOp):
    name = "tile.sqrt"


@irdl_op_definition
class RsqrtOp(UnaryOp):
    name = "tile.rsqrt"


@irdl_op_definition
class RecOp(UnaryOp):
    name = "tile.rec"


@irdl_op_definition
class CastOp(UnaryOp):
    """Convert element type (taken from the operand types), same shape."""

    name = "tile.cast"
    SAME_ELEMENT_TYPE: ClassVar[bool] = False


@irdl_op_definition
class FillOp(TileOp):
    """Set every element of a ub tile to a scalar."""

    name = "tile.fill"

    value = operand_def(AnyFloat | IntegerType)
    dest = operand_def(MemRefType)

    assembly_format = (
        "attr-dict `ins` `(` $value `:` type($value) `)` `outs` `(` $dest `:` type($dest) `)`"
    )

    def __init__(self, value: SSAValue | Operation, dest: SSAValue | Operation):
        super().__init__(operands=[value, dest])

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        return (self.value,)

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return (self.dest,)

    def verify_(self) -> None:
        dt = _memref_in(self, self.dest, "dest", ("ub",))
        if self.value.type != dt.element_type:
            raise VerifyException(
                f"value type {self.value.type} differs from element type "
                f"{dt.element_type}"
            )


class ReduceKind(StrEnum):
    SUM = "sum"
    MAX = "max"
    MIN = "min"


@irdl_attr_definition
class ReduceKindAttr(EnumAttribute[ReduceKind]):
    """`sum`, `max` or `min`; printed `<sum>` inside tile.reduce."""

    name = "tile.reduce_kind"

    # angle brackets belong to the parameter so that the generic form
    # `#tile.reduce_kind<sum>` and the op's custom form `tile.reduce <sum>` agree
    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> ReduceKind:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(ReduceKind)


def _dims_attr(dims: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, list(dims))


class _AlongDimsOp(SourceDestOp, ABC):
    """tile.reduce and tile.broadcast: a ub `source` and `dest` of one element type and
    rank, and `dims`, distinct axes of that rank (each op defines its `dims`)."""

    if TYPE_CHECKING:
        dims: DenseArrayBase[IntegerType]

    def _verified_shapes(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """(source shape, dest shape, dims) once the rules the two ops share hold."""
        st = _memref_in(self, self.source, "source", ("ub",))
        dt = _memref_in(self, self.dest, "dest", ("ub",))
        _same_element_type(self, st.element_type, dt.element_type, "source and dest")
        ss, ds = st.get_shape(), dt.get_shape()
        if len(ss) != len(ds):
            raise VerifyException(
                f"source and dest ranks differ: {len(ss)} vs {len(ds)}"
            )
        dims = tuple(self.dims.get_values())
        _check_dims(self, dims, len(ss))
        return ss, ds, dims


@irdl_op_definition
class ReduceOp(_AlongDimsOp):
    """Reduce a ub tile along `dims`; the destination keeps the rank with size 1 there."""

    name = "tile.reduce"

    kind = prop_def(ReduceKindAttr)
    source = operand_def(MemRefType)
    dest = operand_def(MemRefType)
    dims = prop_def(DenseArrayBase.constr(i64))

    assembly_format = (
        "` ` $kind attr-dict `ins` `(` $source `:` type($source) `)` "
        "`outs` `(` $dest `:` type($dest) `)` `dims` `=` $dims"
    )

    def __init__(
        self,
        kind: ReduceKind | str,
        source: SSAValue | Operation,
        dest: SSAValue | Operation,
        dims: Sequence[int],
    ):
        super().__init__(
            operands=[source, dest],
            properties={"kind": ReduceKindAttr(ReduceKind(kind)), "dims": _dims_attr(dims)},
        )

    @property
    def reduce_dims(self) -> tuple[int, ...]:
        return tuple(self.dims.get_values())

    def verify_(self) -> None:
        ss, ds, dims = self._verified_shapes()
        expected = tuple(1 if i in dims else d for i, d in enumerate(ss))
        if not all(_dims_match(a, b) for a, b in zip(expected, ds)):
            raise VerifyException(
                f"dest shape must be {_shape_text(expected)}, got {_shape_text(ds)}"
            )


@irdl_op_definition
class BroadcastOp(_AlongDimsOp):
    """Repeat a ub tile along `dims`, where the source has size 1."""

    name = "tile.broadcast"

    source = operand_def(MemRefType)
    dest = operand_def(MemRefType)
    dims = prop_def(DenseArrayBase.constr(i64))

    assembly_format = (
        "attr-dict `ins` `(` $source `:` type($source) `)` "
        "`outs` `(` $dest `:` type($dest) `)` `dims` `=` $dims"
    )

    def __init__(
        self, source: SSAValue | Operation, dest: SSAValue | Operation, dims: Sequence[int]
    ):
        super().__init__(operands=[source, dest], properties={"dims": _dims_attr(dims)})

    @property
    def broadcast_dims(self) -> tuple[int, ...]:
        return tuple(self.dims.get_values())

    def verify_(self) -> None:
        ss, ds, dims = self._verified_shapes()
        for i, (s, d) in enumerate(zip(ss, ds)):
            if i in dims:
                if s != 1:
                    raise VerifyException(
                        f"source must have size 1 in broadcast dim {i}, got {s}"
                    )
            elif not _dims_match(s, d):
                raise VerifyException(
                    f"source and dest differ in dim {i}: {s} vs {d}"
                )


@irdl_op_definition
class MatmulOp(TileOp):
    """`c = a @ b` (or `a @ b^T` with `transpose_b`), plus c's old value unless `init`.

    a and b live in L1 (cbuf), c in L0C (cc); the cube unit moves L1 -> L0A/L0B itself.
    """

    name = "tile.matmul"

    a = operand_def(MemRefType)
    b = operand_def(MemRefType)
    c = operand_def(MemRefType)
    init = operand_def(i1)
    transpose_b = opt_attr_def(UnitAttr)

    assembly_format = (
        "attr-dict `ins` `(` $a `,` $b `:` type($a) `,` type($b) `)` "
        "`outs` `(` $c `:` type($c) `)` `init` `(` $init `:` type($init) `)`"
    )

    def __init__(
        self,
        a: SSAValue | Operation,
        b: SSAValue | Operation,
        c: SSAValue | Operation,
        init: SSAValue | Operation,
        transpose_b: bool = False,
    ):
        super().__init__(
            operands=[a, b, c, init],
            attributes={"transpose_b": UnitAttr()} if transpose_b else {},
        )

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        return (self.a, self.b, self.init)

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return (self.c,)

    @property
    def is_transpose_b(self) -> bool:
        return self.transpose_b is not None

    def mkn(self) -> tuple[int, int, int]:
        """(M, K, N) of this matmul, from the operand shapes (DYNAMIC_INDEX where the
        operand is a view of runtime size: a partial tile)."""
        at, bt = self.a.type, self.b.type
        assert isinstance(at, MemRefType) and isinstance(bt, MemRefType)
        m, k = at.get_shape()
        n = bt.get_shape()[0] if self.is_transpose_b else bt.get_shape()[1]
        return m, k, n

    def verify_(self) -> None:
        at = _memref_in(self, self.a, "a", ("cbuf",))
        bt = _memref_in(self, self.b, "b", ("cbuf",))
        ct = _memref_in(self, self.c, "c", ("cc",))
        for role, t in (("a", at), ("b", bt), ("c", ct)):
            if len(t.get_shape()) != 2:
                raise VerifyException(f"{role} must be 2-d, got rank {len(t.get_shape())}")
        _same_element_type(self, at.element_type, bt.element_type, "a and b")
        # the cube unit accumulates floats in f32 and integers in i32
        acc = i32 if isinstance(at.element_type, IntegerType) else f32
        if ct.element_type != acc:
            raise VerifyException(
                f"accumulator c must be {acc} for {at.element_type} inputs, "
                f"got {ct.element_type}"
            )
        m, k = at.get_shape()
        bk, n = bt.get_shape()
        if self.is_transpose_b:
            n, bk = bk, n
        # a partial tile (a view of runtime size) has a dynamic dimension: only
        # dimensions known on both sides are compared; the reference checks the rest
        if not _dims_match(bk, k):
            raise VerifyException(
                f"K of a ({k}) differs from K of b ({bk})"
                + (" (b is transposed: N x K)" if self.is_transpose_b else "")
            )
        cm, cn = ct.get_shape()
        if not (_dims_match(cm, m) and _dims_match(cn, n)):
            raise VerifyException(
                f"c must be {_shape_text((m, n))} (M x N), got {_shape_text(ct.get_shape())}"
            )


class _IndexQueryOp(IRDLOperation, ABC):
    """`%v = tile.<query> : index`: an index the kernel reads from where it runs (no
    memory operands)."""

    result = result_def(IndexType)

    traits = traits_def(Pure())

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self):
        super().__init__(result_types=[IndexType()])

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        return ()

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        return ()


@irdl_op_definition
class BlockIdxOp(_IndexQueryOp):
    """Index of the block (AI core) running this kernel instance, in [0, tile.grid)."""

    name = "tile.block_idx"


@irdl_op_definition
class SubBlockIdxOp(_IndexQueryOp):
    """Index of the vector core (0 or 1) running this copy of a MIX kernel's vector code:
    the two vector cores fed by a dual-destination `tile.copy` use it to pick their rows
    of the output. 0 in a kernel without a dual copy."""

    name = "tile.sub_block_idx"


ELEMENTWISE_BINARY = (AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp)
ELEMENTWISE_UNARY = (ExpOp, LnOp, ReluOp, AbsOp, SqrtOp, RsqrtOp, RecOp)

Tile = Dialect(
    "tile",
    [
        CopyOp,
        *ELEMENTWISE_BINARY,
        *ELEMENTWISE_UNARY,
        CastOp,
        FillOp,
        ReduceOp,
        BroadcastOp,
        MatmulOp,
        BlockIdxOp,
        SubBlockIdxOp,
    ],
    [ReduceKindAttr],
)
