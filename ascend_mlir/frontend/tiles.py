"""Tiles in kernel code, and expressions on them.

A `Tile` is a memref: a GM tensor argument, an on-chip buffer or a view of one. Slicing
(`t[a:b, c:d]`) makes a `memref.subview`; an int or device index in place of a slice
drops that dimension (`x[b, r0:r0 + 64, :]` is a 2-d view of a 3-d tensor).

Arithmetic on ub tiles builds the same tile ops the destination-passing functions do,
right where it is written, each into a temporary the compiler allocates:

    y[rows, :] = T.exp(x - T.reduce_max(x, dim=1))

is `tile.reduce`, `tile.broadcast`, `tile.sub`, `tile.exp` and a `tile.copy` to GM.
`x ** 3` is `x * x * x`; `** 0.5`, `** -1` and `** -0.5` are sqrt, rec and rsqrt.
Temporaries are `memref.alloc`s placed before the outermost loop (where a kernel author
puts them, so the scheduler may version them); when the kernel is built
`temporaries.plan` writes results straight into the tile they are assigned to, lets
ops work in place on operands that die there, and shares one buffer between temporaries
whose lifetimes do not overlap (see temporaries.py). The user never allocates them.

Shapes broadcast like numpy's between operands of the same rank where one has size 1
(a (16, 1) column or a (1, 256) row against a (16, 256) tile); numbers are the scalar
operand of the vector op. Operands must be in ub: `T.load(t)` copies a GM or L0C tile
into a ub temporary.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import memref
from xdsl.dialects.builtin import AnyFloat, IntegerType, MemRefType, StridedLayoutAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ascend_mlir.dialects import tile
from ascend_mlir.frontend.scalars import ScalarValue
from ascend_mlir.frontend.types import element_type
from ascend_mlir.frontend.builder import (
    Index,
    IndexLike,
    check,
    current_scope,
    fail,
    as_index,
    static_difference,
    user_location,
)

Number = int | float


MAX_POWER = 8  # x ** k up to this k: k - 1 vector multiplications


@dataclass(frozen=True)
class Tile:
    """A memref in kernel code: a GM tensor argument, an on-chip buffer or a view of one.
    Slicing (`t[a:b, c:d]`) makes a `memref.subview`; `t[...] = value` writes it;
    `+ - * /`, `**`, unary `-` and `abs()` on ub tiles build vector ops (see the module doc)."""

    value: SSAValue

    @property
    def type(self) -> MemRefType:
        t = self.value.type
        assert isinstance(t, MemRefType)
        return t

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.type.get_shape())

    @property
    def dtype(self) -> Attribute:
        return self.type.get_element_type()

    @property
    def scope(self) -> str | None:
        from ascend_mlir.dialects.hivm import scope_of

        return scope_of(self.type)

    def __getitem__(self, key: object) -> Tile:
        return subview(self, key)

    def __setitem__(self, key: object, value: object) -> None:
        assign(self if _whole(key, len(self.shape)) else subview(self, key), value)

    def __repr__(self) -> str:
        return f"Tile({self.type})"

    # -- expressions: each builds vector ops into a compiler temporary
    def __add__(self, other: Tile | Number) -> Tile:
        return binary(tile.AddOp, self, other)

    def __radd__(self, other: Number) -> Tile:
        return binary(tile.AddOp, self, other)

    def __sub__(self, other: Tile | Number) -> Tile:
        return binary(tile.SubOp, self, other)

    def __rsub__(self, other: Number) -> Tile:
        # c - x = (x * -1) + c: the vector ops take the scalar as second operand only
        return binary(tile.AddOp, binary(tile.MulOp, self, -1), other)

    def __mul__(self, other: Tile | Number) -> Tile:
        return binary(tile.MulOp, self, other)

    def __rmul__(self, other: Number) -> Tile:
        return binary(tile.MulOp, self, other)

    def __truediv__(self, other: Tile | Number) -> Tile:
        return binary(tile.DivOp, self, other)

    def __rtruediv__(self, other: Number) -> Tile:
        inverse = unary(tile.RecOp, self)
        return inverse if other == 1 else binary(tile.MulOp, inverse, other)

    def __pow__(self, exponent: object) -> Tile:
        """x ** k for a whole k from 1 to MAX_POWER: k - 1 multiplications, left to right (x ** 3
        is x * x * x, the IR of the spelled-out form); x ** 0.5 is sqrt, x ** -1 the reciprocal,
        x ** -0.5 rsqrt (the vector unit's ops). Any other exponent is refused, located."""
        if isinstance(exponent, bool) or not isinstance(exponent, int | float):
            raise fail(f"x ** {type(exponent).__name__}: the exponent must be a Python number")
        named = {0.5: tile.SqrtOp, -1: tile.RecOp, -0.5: tile.RsqrtOp}
        if exponent in named:
            return unary(named[exponent], self)
        if exponent != int(exponent) or not 1 <= exponent <= MAX_POWER:
            raise fail(f"x ** {exponent}: powers are whole numbers 1-{MAX_POWER} (repeated multiplication), "
                       "0.5, -1 and -0.5; write others with T.exp and T.log")
        power = self
        for _ in range(int(exponent) - 1):
            power = binary(tile.MulOp, power, self)
        return power

    def __rpow__(self, base: object) -> Tile:
        raise fail(f"{base} ** x: a tile as exponent is refused; write T.exp(x * math.log({base}))")

    def __neg__(self) -> Tile:
        return binary(tile.MulOp, self, -1)

    def __abs__(self) -> Tile:
        return unary(tile.AbsOp, self)

    def _no_compare(self, other: object) -> Tile:
        raise fail("tiles cannot be compared: the vector compare/select ops are not in this "
                   "compiler's hivm subset (use maximum/minimum/relu)")

    __lt__ = __le__ = __gt__ = __ge__ = _no_compare

    def astype(self, dtype: str | Attribute) -> Tile:
        """This tile converted to another element type (`tile.cast` into a temporary)."""
        return cast_to(self, dtype)

    def sum(self, dim: int | Sequence[int]) -> Tile:
        return reduce("sum", self, dim)

    def max(self, dim: int | Sequence[int]) -> Tile:
        return reduce("max", self, dim)

    def min(self, dim: int | Sequence[int]) -> Tile:
        return reduce("min", self, dim)


def as_tile(value: object, role: str) -> Tile:
    if not isinstance(value, Tile):
        raise fail(f"{role} must be a tile (a tensor argument, an alloc, a slice or an "
                   f"expression), got {type(value).__name__}")
    return value


def is_number(value: object) -> bool:
    """A Python number or a runtime scalar (`ScalarValue`): the scalar operand of a vector op."""
    return (isinstance(value, int | float) and not isinstance(value, bool)) or isinstance(value, ScalarValue)


# ----------------------------------------------------------------------------- views


def _whole(key: object, rank: int) -> bool:
    keys = key if isinstance(key, tuple) else (key,)
    return key is Ellipsis or (len(keys) <= rank and all(k == slice(None) for k in keys))


def _runtime_size(stop: IndexLike, start: IndexLike, axis: int) -> Index:
    """The size of a slice known only at run time (a partial tile: x[o:o + n] with n a
    runtime size): `stop - start` as a device index (the atom itself when it is one)."""
    if not isinstance(stop, Index) and not isinstance(start, Index):
        raise fail(f"slice {axis}: no size")
    size = as_index(stop) - start
    terms, const = size.linear if size.linear is not None else (frozenset(), 1)
    if const == 0 and len(terms) == 1:
        (atom, coeff), = terms
        if coeff == 1:
            return Index(atom)
    return size


def _slice_bounds(key: slice, dim: int, axis: int) -> tuple[IndexLike, int | Index]:
    if key.step not in (None, 1):
        raise fail(f"slice {axis} has step {key.step}: only unit steps are supported")
    start = 0 if key.start is None else key.start
    if key.stop is None and dim < 0:
        raise fail(f"slice {axis} of a runtime dimension needs its stop (x[o:o + n])")
    stop = dim if key.stop is None else key.stop
    for bound in (start, stop):
        if not isinstance(bound, Index) and (isinstance(bound, bool) or not isinstance(bound, int)):
            raise fail(f"slice {axis} bounds must be ints or device indices, got {bound!r}")
    size = static_difference(stop, start)
    if size is None:
        return start, _runtime_size(stop, start, axis)
    if size <= 0:
        raise fail(f"slice {axis} is empty or reversed (size {size})")
    if dim < 0:  # a runtime dimension: the reference checks the bounds at run time
        return start, size
    if isinstance(start, int) and (start < 0 or start + size > dim):
        raise fail(f"slice {axis} [{start}:{start + size}] is out of bounds for size {dim}")
    if size > dim:
        raise fail(f"slice {axis} of size {size} is larger than the dimension ({dim})")
    return start, size


def _bounds(key: object, dim: int, axis: int) -> tuple[IndexLike, int | Index, bool]:
    """(start, size, dropped): a slice keeps the dimension, an index drops it."""
    if isinstance(key, slice):
        start, size = _slice_bounds(key, dim, axis)
        return start, size, False
    if isinstance(key, Index) or (isinstance(key, int) and not isinstance(key, bool)):
        if isinstance(key, int) and not 0 <= key < dim:
            raise fail(f"index {key} of dimension {axis} is out of bounds for size {dim}")
        return key, 1, True
    raise fail(f"index {axis} must be a slice a:b or an index (which drops the dimension), got {key!r}")


def subview(source: Tile, key: object) -> Tile:
    keys = key if isinstance(key, tuple) else (key,)
    shape = source.shape
    if len(keys) > len(shape):
        raise fail(f"{len(keys)} indices for a tile of rank {len(shape)}")
    keys = keys + (slice(None),) * (len(shape) - len(keys))
    offsets: list[SSAValue | int] = []
    sizes: list[SSAValue | int] = []
    dropped: list[int] = []
    for axis, (k, dim) in enumerate(zip(keys, shape, strict=False)):
        start, size, drop = _bounds(k, dim, axis)
        offsets.append(start.value if isinstance(start, Index) else start)
        sizes.append(size.value if isinstance(size, Index) else size)
        if drop:
            dropped.append(axis)
    if len(dropped) == len(shape):
        raise fail("indexing every dimension leaves no tile (keep one as a slice, e.g. x[i, 0:1])")
    strides = [1] * len(shape)
    full = memref.SubviewOp.infer_result_type(source.type, offsets, sizes, strides)
    result = MemRefType(full.element_type, full.shape, full.layout, source.type.memory_space)
    if dropped:
        result = _rank_reduced(full, dropped, source.type.memory_space)
    op = memref.SubviewOp.get(source.value, offsets, sizes, strides, result)
    check(op)
    return Tile(current_scope().remember(op.result))


def _rank_reduced(full: MemRefType, dropped: list[int], space: Attribute) -> MemRefType:
    layout = full.layout
    assert isinstance(layout, StridedLayoutAttr)
    strides = layout.get_strides()
    keep = [i for i in range(len(full.shape)) if i not in dropped]
    shape = [full.get_shape()[i] for i in keep]
    kept_strides = [strides[i] for i in keep]
    return MemRefType(full.element_type, shape, StridedLayoutAttr(kept_strides, layout.get_offset()), space)


# ----------------------------------------------------------------------------- temporaries


def temporary(shape: Sequence[int], dtype: Attribute) -> Tile:
    """A ub buffer for an expression's result, allocated where a kernel author would
    (before the outermost open loop) and planned when the kernel is finished."""
    from ascend_mlir.dialects import hivm

    scope = current_scope()
    op = memref.AllocOp([], [], MemRefType(dtype, list(shape), memory_space=hivm.address_space("ub")))
    if op.parent is not None:  # the implicit builder put it at the current line
        op.detach()
    location = user_location()
    if location is not None:
        op.location = location.attr()
    anchor = _outermost_open_op(scope.entry, scope.builders[-1].insertion_point.block)
    if anchor is None:
        scope.entry.add_op(op)
    else:
        scope.entry.insert_op_before(op, anchor)
    scope.temporaries.append(op)
    return Tile(scope.remember(op.memref))


def _outermost_open_op(entry: Block, block: Block | None) -> Operation | None:
    """The op of the entry block that holds `block`, the current insertion point (None:
    the insertion point is the entry block itself)."""
    anchor: Operation | None = None
    while block is not entry and block is not None:
        anchor = block.parent_op()
        block = anchor.parent_block() if anchor is not None else None
    return anchor


# ----------------------------------------------------------------------------- expressions


def _ub(value: object, role: str) -> Tile:
    t = as_tile(value, role)
    if t.scope != "ub":
        raise fail(f"{role} is in {t.scope}: vector ops read ub tiles; load it first "
                   "(T.load(t) copies it into a ub temporary)")
    return t


def scalar(value: Number | ScalarValue, like: Tile) -> SSAValue:
    et = like.dtype
    if isinstance(value, ScalarValue):
        if value.type != et:
            raise fail(f"a {value.type} scalar is no operand of a {et} tile: T.cast it to the tile's type")
        return value.value
    if not isinstance(value, numbers.Real):
        # float("a") / float(None) were Python's own unlocated errors
        raise fail(f"a scalar operand is an int or a float, got {value!r}")
    if isinstance(et, AnyFloat):
        return current_scope().constant(float(value), et)
    if isinstance(et, IntegerType):
        if isinstance(value, float) and not value.is_integer():
            raise fail(f"scalar {value} is not an integer, the tile holds {et}")
        return current_scope().constant(int(value), et)
    raise fail(f"no scalar operand for element type {et}")


def broadcast_shape(a: tuple[int, ...], b: tuple[int, ...], what: str) -> tuple[int, ...]:
    if len(a) != len(b):
        raise fail(f"{what}: shapes {a} and {b} have different ranks (index a row as x[i:i + 1, :] "
                   "to keep it 2-d)")
    shape = []
    for x, y in zip(a, b):
        if x != y and 1 not in (x, y):
            raise fail(f"{what}: shapes {a} and {b} do not broadcast (sizes {x} and {y})")
        shape.append(max(x, y))
    return tuple(shape)


def broadcast_to(source: Tile, shape: Sequence[int], dest: Tile | None = None) -> Tile:
    """`source` repeated along its size-1 dimensions to `shape` (itself if it has it)."""
    shape = tuple(shape)
    if source.shape == shape and dest is None:
        return source
    broadcast_shape(source.shape, shape, "broadcast")
    dims = [i for i, (s, d) in enumerate(zip(source.shape, shape)) if s == 1 and d != 1]
    out = dest if dest is not None else temporary(shape, source.dtype)
    if not dims:  # same shape, a destination given: a plain copy
        check(tile.CopyOp(source.value, out.value))
        return out
    check(tile.BroadcastOp(source.value, out.value, dims))
    return out


def binary(op_type: type[tile.BinaryOp], lhs: object, rhs: object) -> Tile:
    what = op_type.name
    left = _ub(lhs, f"{what} lhs")
    if is_number(rhs):
        out = temporary(left.shape, left.dtype)
        check(op_type(left.value, scalar(rhs, left), out.value))  # type: ignore[arg-type]
        return out
    right = _ub(rhs, f"{what} rhs")
    if left.dtype != right.dtype:
        raise fail(f"{what}: element types differ ({left.dtype} and {right.dtype}); "
                   "convert one with .astype(...)")
    shape = broadcast_shape(left.shape, right.shape, what)
    left, right = broadcast_to(left, shape), broadcast_to(right, shape)
    out = temporary(shape, left.dtype)
    check(op_type(left.value, right.value, out.value))
    return out


def binary_commutative(op_type: type[tile.BinaryOp], lhs: object, rhs: object) -> Tile:
    """max/min (and add/mul) with the number on either side."""
    if is_number(lhs) and isinstance(rhs, Tile):
        lhs, rhs = rhs, lhs
    return binary(op_type, lhs, rhs)


def unary(op_type: type[tile.UnaryOp], source: object) -> Tile:
    src = _ub(source, f"{op_type.name} source")
    out = temporary(src.shape, src.dtype)
    check(op_type(src.value, out.value))
    return out


def cast_to(source: object, dtype: str | Attribute) -> Tile:
    src = _ub(source, "cast source")
    target = element_type(dtype)
    if target == src.dtype:
        return src
    out = temporary(src.shape, target)
    check(tile.CastOp(src.value, out.value))
    return out


def reduce(kind: str, source: object, dim: int | Sequence[int] | None) -> Tile:
    src = _ub(source, f"reduce_{kind} source")
    if dim is None:
        raise fail(f"reduce_{kind}: say which dimension to reduce (dim=1 sums each row)")
    dims = [dim] if isinstance(dim, int) else list(dim)
    for d in dims:
        if isinstance(d, bool) or not isinstance(d, int) or not 0 <= d < len(src.shape):
            raise fail(f"reduce_{kind}: dim {d!r} is not a dimension of a rank-{len(src.shape)} tile")
    out = temporary(tuple(1 if i in dims else n for i, n in enumerate(src.shape)), src.dtype)
    check(tile.ReduceOp(kind, src.value, out.value, dims))
    return out


def sigmoid(source: object) -> Tile:
    """1 / (1 + exp(-x)): four vector ops (no sigmoid op on the vector unit)."""
    return 1 / (unary(tile.ExpOp, -_ub(source, "sigmoid source")) + 1)


def tanh(source: object) -> Tile:
    """2 / (1 + exp(-2x)) - 1: six vector ops (no tanh op on the vector unit); saturates
    to +-1 where exp over- or underflows."""
    x = _ub(source, "tanh source")
    return 2 / (unary(tile.ExpOp, x * -2) + 1) - 1


def load(source: object) -> Tile:
    """A ub copy of `source` (a GM slice, an L0C accumulator, ...), to compute on."""
    src = as_tile(source, "load source")
    out = temporary(src.shape, src.dtype)
    check(tile.CopyOp(src.value, out.value))
    return out


def assign(dest: Tile, value: object) -> None:
    """`dest[...] = value`: a number fills a ub tile; a tile is copied (any legal scope
    pair) or, when it is a row or column of a ub destination, broadcast into it."""
    if is_number(value):
        out = _ub(dest, "a filled tile")
        check(tile.FillOp(scalar(value, out), out.value))  # type: ignore[arg-type]
        return
    source = as_tile(value, "the assigned value")
    if source.dtype != dest.dtype:
        raise fail(f"assigning {source.dtype} to a {dest.dtype} tile: convert with .astype(...)")
    if source.shape != dest.shape:
        if len(source.shape) != len(dest.shape) or any(s not in (1, d) for s, d in zip(source.shape, dest.shape)):
            # said before the scopes: a store of the wrong size is no broadcast into GM
            raise fail(f"assigning a {_dims(source.shape)} tile to a {_dims(dest.shape)} destination: the shapes "
                       "differ, and only size-1 dimensions (a row or a column) broadcast")
        broadcast_to(_ub(source, "a broadcast source"), dest.shape, _ub(dest, "a broadcast destination"))
        return
    check(tile.CopyOp(source.value, dest.value))


def _dims(shape: Sequence[int]) -> str:
    return "x".join(map(str, shape))
