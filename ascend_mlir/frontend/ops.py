"""The operations of the Python DSL; each builds one tile-level op (or a few index ops).

Destination-passing, like the tile dialect: `add(a, b, out)` writes `out`; without the
destination, `add(a, b)` (or `a + b`) returns a new tile (tiles.py). Every op is
verified as it is built, so a bad shape or scope is a `DSLError` naming the line that
called it, with the tile verifier's message.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, i64
from xdsl.ir import Attribute, Block

from ascend_mlir.dialects import tile
from ascend_mlir.frontend import tiles
from ascend_mlir.frontend.builder import (
    Bool,
    Index,
    IndexLike,
    as_bool,
    as_index,
    check,
    current_scope,
    fail,
)
from ascend_mlir.frontend.scalars import ScalarValue, scalar_cast
from ascend_mlir.frontend.tiles import Number, Tile, as_tile, is_number, scalar
from ascend_mlir.frontend.types import element_type, memref_type, scope_attr

# ----------------------------------------------------------------------------- buffers


def alloc(shape: Sequence[int] | int, dtype: str | Attribute, scope: str) -> Tile:
    """An on-chip buffer: `alloc((16, 256), "f32", "ub")`. Scopes: cbuf (L1), cc (L0C), ub."""
    t = memref_type(shape, dtype, scope)
    if scope_attr(scope).data.value == "gm":
        raise fail("alloc makes on-chip buffers (cbuf, cc, ub); GM tensors are kernel arguments")
    return Tile(current_scope().remember(memref.AllocOp([], [], t).memref))


# ----------------------------------------------------------------------------- data movement


def copy(source: Tile, dest: Tile) -> None:
    """Move a tile; the scope pair picks the hardware path (gm->ub load, gm->cbuf nd2nz,
    cc->gm/ub/cbuf fixpipe, ub->gm store, ub->ub, ub->cbuf). From cc to a ub tile half as
    tall it is the dual copy to the two vector cores."""
    check(tile.CopyOp(as_tile(source, "copy source").value, as_tile(dest, "copy dest").value))


def matmul(a: Tile, b: Tile, c: Tile, *, init: Bool | bool, transpose_b: bool = False) -> None:
    """`c = a @ b` (`a @ b^T` with transpose_b) when `init`, else `c += a @ b`.
    a and b in cbuf (L1), c in cc (L0C)."""
    op = tile.MatmulOp(as_tile(a, "matmul a").value, as_tile(b, "matmul b").value,
                       as_tile(c, "matmul c").value, as_bool(init), transpose_b=transpose_b)
    check(op)


# ----------------------------------------------------------------------------- vector ops
#
# Each takes an optional destination: given, the op writes it (destination-passing, as
# the tile dialect); omitted, the result is a new tile in a compiler temporary, so ops
# compose as expressions (`T.exp(x - m)`; see tiles.py). Operators on tiles do the same.


def _binary(op_type: type[tile.BinaryOp], lhs: Tile | Number, rhs: Tile | Number | ScalarValue,
            out: Tile | None) -> Tile | None:
    if out is None:
        if op_type in (tile.AddOp, tile.MulOp, tile.MaxOp, tile.MinOp):
            return tiles.binary_commutative(op_type, lhs, rhs)
        return tiles.binary(op_type, lhs, rhs)
    left = as_tile(lhs, f"{op_type.name} lhs")
    if isinstance(rhs, Tile):
        rhs_value = rhs.value
    elif is_number(rhs):
        rhs_value = scalar(rhs, left)
    else:
        raise fail(f"{op_type.name} rhs must be a tile or a number, got {type(rhs).__name__}")
    check(op_type(left.value, rhs_value, as_tile(out, f"{op_type.name} out").value))
    return None


def add(lhs: Tile | Number, rhs: Tile | Number | ScalarValue, out: Tile | None = None) -> Tile | None:
    """lhs + rhs (rhs: a ub tile of the same shape, or a number; broadcast when `out` is
    omitted)."""
    return _binary(tile.AddOp, lhs, rhs, out)


def sub(lhs: Tile | Number, rhs: Tile | Number | ScalarValue, out: Tile | None = None) -> Tile | None:
    return _binary(tile.SubOp, lhs, rhs, out)


def mul(lhs: Tile | Number, rhs: Tile | Number | ScalarValue, out: Tile | None = None) -> Tile | None:
    return _binary(tile.MulOp, lhs, rhs, out)


def div(lhs: Tile | Number, rhs: Tile | Number | ScalarValue, out: Tile | None = None) -> Tile | None:
    return _binary(tile.DivOp, lhs, rhs, out)


def maximum(lhs: Tile | Number, rhs: Tile | Number | ScalarValue, out: Tile | None = None) -> Tile | None:
    return _binary(tile.MaxOp, lhs, rhs, out)


def minimum(lhs: Tile | Number, rhs: Tile | Number | ScalarValue, out: Tile | None = None) -> Tile | None:
    return _binary(tile.MinOp, lhs, rhs, out)


def _unary(op_type: type[tile.UnaryOp], source: Tile, out: Tile | None) -> Tile | None:
    if out is None:
        return tiles.unary(op_type, source)
    check(op_type(as_tile(source, f"{op_type.name} source").value,
                  as_tile(out, f"{op_type.name} out").value))
    return None


def exp(source: Tile, out: Tile | None = None) -> Tile | None:
    return _unary(tile.ExpOp, source, out)


def ln(source: Tile, out: Tile | None = None) -> Tile | None:
    """Natural logarithm (also spelled `log`)."""
    return _unary(tile.LnOp, source, out)


log = ln


def relu(source: Tile, out: Tile | None = None) -> Tile | None:
    return _unary(tile.ReluOp, source, out)


def abs(source: Tile, out: Tile | None = None) -> Tile | None:  # noqa: A001 - the op's name
    return _unary(tile.AbsOp, source, out)


def sqrt(source: Tile, out: Tile | None = None) -> Tile | None:
    return _unary(tile.SqrtOp, source, out)


def rsqrt(source: Tile, out: Tile | None = None) -> Tile | None:
    return _unary(tile.RsqrtOp, source, out)


def rec(source: Tile, out: Tile | None = None) -> Tile | None:
    """1 / source."""
    return _unary(tile.RecOp, source, out)


def _composed(result: Tile, out: Tile | None) -> Tile | None:
    if out is None:
        return result
    tiles.assign(out, result)
    return None


def tanh(source: Tile, out: Tile | None = None) -> Tile | None:
    """tanh as 2 / (1 + exp(-2x)) - 1 (six vector ops: the vector unit has no tanh)."""
    return _composed(tiles.tanh(source), out)


def sigmoid(source: Tile, out: Tile | None = None) -> Tile | None:
    """1 / (1 + exp(-x)) (four vector ops: the vector unit has no sigmoid)."""
    return _composed(tiles.sigmoid(source), out)


@overload
def cast(source: Index | ScalarValue, out: str | Attribute) -> ScalarValue: ...
@overload
def cast(source: Tile, out: str | Attribute) -> Tile: ...
@overload
def cast(source: Tile, out: Tile) -> None: ...
def cast(source: Tile | Index | ScalarValue, out: Tile | str | Attribute) -> Tile | ScalarValue | None:
    """Convert element types: `cast(x, out)` writes `out` (types from the two tiles);
    `cast(x, "bf16")` returns the converted tile (also `x.astype("bf16")`). A device
    index or a runtime scalar converts to a scalar: `T.cast(n, "f32")` (scalars.py)."""
    if isinstance(source, Index | ScalarValue):
        if isinstance(out, Tile):
            raise fail("a scalar is cast to a type (T.cast(n, 'f32')), not into a tile: T.fill the tile with it")
        return scalar_cast(source, out)
    if not isinstance(out, Tile):
        return tiles.cast_to(source, out)
    return _unary(tile.CastOp, source, out)


def fill(out: Tile, value: float | int | ScalarValue) -> None:
    dest = as_tile(out, "fill out")
    check(tile.FillOp(scalar(value, dest), dest.value))


def load(source: Tile) -> Tile:
    """A ub copy of a GM slice or an L0C accumulator, to compute on."""
    return tiles.load(source)


def _dims(dims: int | Sequence[int] | None, narrow: Tile, wide: Tile, what: str) -> list[int]:
    if dims is None:
        inferred = [i for i, (n, w) in enumerate(zip(narrow.shape, wide.shape, strict=False)) if n == 1 and w != 1]
        if not inferred or len(narrow.shape) != len(wide.shape):
            raise fail(f"{what}: cannot infer dims from shapes {narrow.shape} and {wide.shape}; pass dim=")
        return inferred
    return [dims] if isinstance(dims, int) else list(dims)


def _reduce(kind: str, source: Tile, out: Tile | None, dim: int | Sequence[int] | None) -> Tile | None:
    if out is None:
        return tiles.reduce(kind, source, dim)
    src, dest = as_tile(source, f"reduce_{kind} source"), as_tile(out, f"reduce_{kind} out")
    check(tile.ReduceOp(kind, src.value, dest.value, _dims(dim, dest, src, f"reduce_{kind}")))
    return None


def reduce_sum(source: Tile, out: Tile | None = None, dim: int | Sequence[int] | None = None) -> Tile | None:
    """Sum of source along `dim` (size 1 there): into `out` (dim inferred when omitted),
    or, without `out`, as a new tile (`reduce_sum(x, dim=1)`)."""
    return _reduce("sum", source, out, dim)


def reduce_max(source: Tile, out: Tile | None = None, dim: int | Sequence[int] | None = None) -> Tile | None:
    return _reduce("max", source, out, dim)


def reduce_min(source: Tile, out: Tile | None = None, dim: int | Sequence[int] | None = None) -> Tile | None:
    return _reduce("min", source, out, dim)


def broadcast(source: Tile, out: Tile | Sequence[int], dim: int | Sequence[int] | None = None) -> Tile | None:
    """Repeat source along `dim`, where it has size 1 (inferred when omitted), into the
    tile `out`; with a shape instead of `out`, as a new tile (`broadcast(row, (16, 256))`)."""
    if not isinstance(out, Tile):
        return tiles.broadcast_to(as_tile(source, "broadcast source"), out)
    src, dest = as_tile(source, "broadcast source"), as_tile(out, "broadcast out")
    check(tile.BroadcastOp(src.value, dest.value, _dims(dim, src, dest, "broadcast")))
    return None


# ----------------------------------------------------------------------------- indices, loops


def block_idx() -> Index:
    """The block (AI core) index of this kernel instance, in [0, grid)."""
    return Index(current_scope().remember(tile.BlockIdxOp().result))


def sub_block_idx() -> Index:
    """Which of the two vector cores runs this code (0 or 1), in a MIX kernel.

    Built as `tile.sub_block_idx` only when used; the op is new in the tile dialect."""
    op_type = getattr(tile, "SubBlockIdxOp", None)
    if op_type is None:
        raise fail("sub_block_idx() needs the tile.sub_block_idx op, which this build of the "
                   "tile dialect does not have yet")
    return Index(current_scope().remember(op_type().result))


def _not_linear(lhs, rhs) -> None:
    """min and max of two indices are no linear form of them: the result stands for itself."""
    return None


def index_min(lhs: IndexLike, rhs: IndexLike) -> Index:
    """The smaller of two device indices (`arith.minsi`), spelled `T.min`: the size of a
    partial tile, `T.min(n - off, 512)`; the analyses bound it by its constant operand."""
    return as_index(lhs)._binary(rhs, arith.MinSIOp, _not_linear)


def index_max(lhs: IndexLike, rhs: IndexLike) -> Index:
    """The larger of two device indices (`arith.maxsi`), spelled `T.max`: a trip count of
    at least one, `T.max(steps, 1)` (gemm_dyn's K loop, whose one step at K = 0 inits C)."""
    return as_index(lhs)._binary(rhs, arith.MaxSIOp, _not_linear)


def pipelined(iterations: range | int, num_stages: int | None = None) -> Iterator[Index]:
    """`for k in pipelined(range(n), num_stages=2):` — an scf.for whose buffers the
    scheduler may give up to `num_stages` versions (no attribute when None: one version).

    The body is traced once, with `k` the loop's induction variable."""
    lb, ub, step = _range_bounds(iterations)
    if num_stages is not None and (isinstance(num_stages, bool) or not isinstance(num_stages, int)
                                   or num_stages < 1):
        raise fail(f"num_stages must be a positive int, got {num_stages!r}")
    scope = current_scope()
    body = Block(arg_types=[IndexType()])
    loop = scf.ForOp(as_index(lb).value, as_index(ub).value, as_index(step).value, [], body)
    if num_stages is not None:
        loop.attributes[tile.NUM_STAGES_ATTR] = IntegerAttr(num_stages, i64)
    generator = _loop_body(scope, body)
    scope.open_loops.append(generator)
    return generator


def _loop_body(scope, body: Block) -> Iterator[Index]:
    scope.remember(body.args[0])
    with scope.inside(body):
        yield Index(body.args[0])
        scf.YieldOp()
    scope.open_loops.pop()


def _range_bounds(iterations: range | int) -> tuple[IndexLike, IndexLike, IndexLike]:
    if isinstance(iterations, int) and not isinstance(iterations, bool):
        iterations = range(iterations)
    if isinstance(iterations, range):
        if iterations.step <= 0:
            raise fail(f"loops count upwards: step {iterations.step}")
        if len(iterations) == 0:
            raise fail(f"{iterations} has no iterations")
        return iterations.start, iterations.stop, iterations.step
    if isinstance(iterations, tuple) and len(iterations) == 3:
        return iterations  # (lb, ub, step) with device indices
    raise fail(f"pipelined takes range(...), an int or a (start, stop, step) tuple, got {iterations!r}")


__all__ = [
    "alloc", "copy", "matmul", "add", "sub", "mul", "div", "maximum", "minimum",
    "exp", "ln", "log", "relu", "abs", "sqrt", "rsqrt", "rec", "tanh", "sigmoid", "cast", "fill",
    "load", "reduce_sum", "reduce_max", "reduce_min", "broadcast",
    "block_idx", "sub_block_idx", "pipelined", "element_type", "memref_type", "index_min", "index_max",
]
