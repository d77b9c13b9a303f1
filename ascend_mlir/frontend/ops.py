"""The operations of the Python DSL; each builds one tile-level op (or a few index ops).

Destination-passing, like the tile dialect: `add(a, b, out)` writes `out`. Every op is
verified as it is built, so a bad shape or scope is a `DSLError` naming the line that
called it, with the tile verifier's message.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    bf16,
    f16,
    f32,
    f64,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, SSAValue

from ascend_mlir.dialects import tile
from ascend_mlir.frontend.builder import (
    Bool,
    Index,
    IndexLike,
    Tile,
    as_bool,
    as_index,
    check,
    current_scope,
    fail,
    static_difference,
)

DTYPES: dict[str, Attribute] = {
    "f32": f32, "float32": f32, "fp32": f32,
    "f16": f16, "float16": f16, "fp16": f16, "half": f16,
    "bf16": bf16, "bfloat16": bf16,
    "f64": f64, "float64": f64,
    "i8": i8, "int8": i8, "i16": i16, "int16": i16, "i32": i32, "int32": i32,
    "i64": i64, "int64": i64,
}

SCOPES: dict[str, str] = {
    "gm": "gm", "ub": "ub", "cbuf": "cbuf", "cc": "cc",
    "l1": "cbuf", "l0c": "cc", "ubuf": "ub",
}


def element_type(dtype: str | Attribute) -> Attribute:
    if isinstance(dtype, Attribute):
        return dtype
    found = DTYPES.get(str(dtype).lower()) if isinstance(dtype, str) else None
    if found is None:
        raise fail(f"unknown dtype {dtype!r} (known: f32, f16, bf16, i8, i16, i32, i64, f64)")
    return found


def scope_attr(scope: str):
    from ascend_mlir.dialects import hivm

    name = SCOPES.get(str(scope).lower()) if isinstance(scope, str) else None
    if name is None:
        raise fail(f"unknown memory scope {scope!r} (known: gm, cbuf (L1), cc (L0C), ub)")
    return hivm.address_space(name)


def memref_type(shape: Sequence[int] | int, dtype: str | Attribute, scope: str) -> MemRefType:
    if isinstance(shape, int):
        shape = (shape,)
    if not isinstance(shape, Sequence) or not shape:
        raise fail(f"a shape is a non-empty tuple of positive ints, got {shape!r}")
    for d in shape:
        if isinstance(d, bool) or not isinstance(d, int) or d <= 0:
            raise fail(f"a shape is a non-empty tuple of positive ints, got {tuple(shape)!r}")
    return MemRefType(element_type(dtype), list(shape), memory_space=scope_attr(scope))


def _tile(value: object, role: str) -> Tile:
    if not isinstance(value, Tile):
        raise fail(f"{role} must be a tile (a tensor argument, an alloc or a slice), "
                   f"got {type(value).__name__}")
    return value


# ----------------------------------------------------------------------------- buffers


def alloc(shape: Sequence[int] | int, dtype: str | Attribute, scope: str) -> Tile:
    """An on-chip buffer: `alloc((16, 256), "f32", "ub")`. Scopes: cbuf (L1), cc (L0C), ub."""
    t = memref_type(shape, dtype, scope)
    if scope_attr(scope).data.value == "gm":
        raise fail("alloc makes on-chip buffers (cbuf, cc, ub); GM tensors are kernel arguments")
    return Tile(current_scope().remember(memref.AllocOp([], [], t).memref))


def _slice_bounds(key: object, dim: int, axis: int) -> tuple[IndexLike, int]:
    if not isinstance(key, slice):
        raise fail(f"index {axis} must be a slice like a:b (tiles keep their rank), got {key!r}")
    if key.step not in (None, 1):
        raise fail(f"slice {axis} has step {key.step}: only unit steps are supported")
    start = 0 if key.start is None else key.start
    stop = dim if key.stop is None else key.stop
    for bound in (start, stop):
        if not isinstance(bound, Index) and (isinstance(bound, bool) or not isinstance(bound, int)):
            raise fail(f"slice {axis} bounds must be ints or device indices, got {bound!r}")
    size = static_difference(stop, start)
    if size is None:
        raise fail(f"slice {axis}: the size stop - start must be a constant "
                   "(write it as x[o:o + 64], or x[i * 64:(i + 1) * 64])")
    if size <= 0:
        raise fail(f"slice {axis} is empty or reversed (size {size})")
    if isinstance(start, int) and (start < 0 or start + size > dim):
        raise fail(f"slice {axis} [{start}:{start + size}] is out of bounds for size {dim}")
    if size > dim:
        raise fail(f"slice {axis} of size {size} is larger than the dimension ({dim})")
    return start, size


def subview(source: Tile, key: object) -> Tile:
    keys = key if isinstance(key, tuple) else (key,)
    shape = source.shape
    if len(keys) > len(shape):
        raise fail(f"{len(keys)} indices for a tile of rank {len(shape)}")
    keys = keys + (slice(None),) * (len(shape) - len(keys))
    offsets: list[SSAValue | int] = []
    sizes: list[int] = []
    for axis, (k, dim) in enumerate(zip(keys, shape, strict=False)):
        start, size = _slice_bounds(k, dim, axis)
        offsets.append(start.value if isinstance(start, Index) else start)
        sizes.append(size)
    strides = [1] * len(shape)
    result = memref.SubviewOp.infer_result_type(source.type, offsets, sizes, strides)
    result = MemRefType(result.element_type, result.shape, result.layout, source.type.memory_space)
    op = memref.SubviewOp.get(source.value, offsets, sizes, strides, result)
    check(op)
    return Tile(current_scope().remember(op.result))


# ----------------------------------------------------------------------------- data movement


def copy(source: Tile, dest: Tile) -> None:
    """Move a tile; the scope pair picks the hardware path (gm->ub load, gm->cbuf nd2nz,
    cc->gm/ub/cbuf fixpipe, ub->gm store, ub->ub, ub->cbuf). From cc to a ub tile half as
    tall it is the dual copy to the two vector cores."""
    check(tile.CopyOp(_tile(source, "copy source").value, _tile(dest, "copy dest").value))


def matmul(a: Tile, b: Tile, c: Tile, *, init: Bool | bool, transpose_b: bool = False) -> None:
    """`c = a @ b` (`a @ b^T` with transpose_b) when `init`, else `c += a @ b`.
    a and b in cbuf (L1), c in cc (L0C)."""
    op = tile.MatmulOp(_tile(a, "matmul a").value, _tile(b, "matmul b").value,
                       _tile(c, "matmul c").value, as_bool(init), transpose_b=transpose_b)
    check(op)


# ----------------------------------------------------------------------------- vector ops


def _scalar(value: float | int, like: Tile) -> SSAValue:
    et = like.dtype
    if isinstance(et, AnyFloat):
        return current_scope().constant(float(value), et)
    if isinstance(et, IntegerType):
        if isinstance(value, float) and not value.is_integer():
            raise fail(f"scalar {value} is not an integer, the tile holds {et}")
        return current_scope().constant(int(value), et)
    raise fail(f"no scalar operand for element type {et}")


def _binary(op_type: type[tile.BinaryOp], lhs: Tile, rhs: Tile | float | int, out: Tile) -> None:
    lhs = _tile(lhs, f"{op_type.name} lhs")
    if isinstance(rhs, Tile):
        rhs_value = rhs.value
    elif isinstance(rhs, int | float) and not isinstance(rhs, bool):
        rhs_value = _scalar(rhs, lhs)
    else:
        raise fail(f"{op_type.name} rhs must be a tile or a number, got {type(rhs).__name__}")
    check(op_type(lhs.value, rhs_value, _tile(out, f"{op_type.name} out").value))


def add(lhs: Tile, rhs: Tile | float, out: Tile) -> None:
    """out = lhs + rhs (rhs: a ub tile of the same shape, or a number)."""
    _binary(tile.AddOp, lhs, rhs, out)


def sub(lhs: Tile, rhs: Tile | float, out: Tile) -> None:
    _binary(tile.SubOp, lhs, rhs, out)


def mul(lhs: Tile, rhs: Tile | float, out: Tile) -> None:
    _binary(tile.MulOp, lhs, rhs, out)


def div(lhs: Tile, rhs: Tile | float, out: Tile) -> None:
    _binary(tile.DivOp, lhs, rhs, out)


def maximum(lhs: Tile, rhs: Tile | float, out: Tile) -> None:
    _binary(tile.MaxOp, lhs, rhs, out)


def minimum(lhs: Tile, rhs: Tile | float, out: Tile) -> None:
    _binary(tile.MinOp, lhs, rhs, out)


def _unary(op_type: type[tile.UnaryOp], source: Tile, out: Tile) -> None:
    check(op_type(_tile(source, f"{op_type.name} source").value,
                  _tile(out, f"{op_type.name} out").value))


def exp(source: Tile, out: Tile) -> None:
    _unary(tile.ExpOp, source, out)


def ln(source: Tile, out: Tile) -> None:
    _unary(tile.LnOp, source, out)


def relu(source: Tile, out: Tile) -> None:
    _unary(tile.ReluOp, source, out)


def abs(source: Tile, out: Tile) -> None:  # noqa: A001 - the op's name
    _unary(tile.AbsOp, source, out)


def sqrt(source: Tile, out: Tile) -> None:
    _unary(tile.SqrtOp, source, out)


def rsqrt(source: Tile, out: Tile) -> None:
    _unary(tile.RsqrtOp, source, out)


def rec(source: Tile, out: Tile) -> None:
    """out = 1 / source."""
    _unary(tile.RecOp, source, out)


def cast(source: Tile, out: Tile) -> None:
    """Convert element types (from the two tiles' dtypes)."""
    _unary(tile.CastOp, source, out)


def fill(out: Tile, value: float | int) -> None:
    out = _tile(out, "fill out")
    check(tile.FillOp(_scalar(value, out), out.value))


def _dims(dims: int | Sequence[int] | None, narrow: Tile, wide: Tile, what: str) -> list[int]:
    if dims is None:
        inferred = [i for i, (n, w) in enumerate(zip(narrow.shape, wide.shape, strict=False)) if n == 1 and w != 1]
        if not inferred or len(narrow.shape) != len(wide.shape):
            raise fail(f"{what}: cannot infer dims from shapes {narrow.shape} and {wide.shape}; pass dim=")
        return inferred
    return [dims] if isinstance(dims, int) else list(dims)


def _reduce(kind: str, source: Tile, out: Tile, dim: int | Sequence[int] | None) -> None:
    source, out = _tile(source, f"reduce_{kind} source"), _tile(out, f"reduce_{kind} out")
    check(tile.ReduceOp(kind, source.value, out.value, _dims(dim, out, source, f"reduce_{kind}")))


def reduce_sum(source: Tile, out: Tile, dim: int | Sequence[int] | None = None) -> None:
    """out = sum of source along `dim` (out has size 1 there; inferred when omitted)."""
    _reduce("sum", source, out, dim)


def reduce_max(source: Tile, out: Tile, dim: int | Sequence[int] | None = None) -> None:
    _reduce("max", source, out, dim)


def reduce_min(source: Tile, out: Tile, dim: int | Sequence[int] | None = None) -> None:
    _reduce("min", source, out, dim)


def broadcast(source: Tile, out: Tile, dim: int | Sequence[int] | None = None) -> None:
    """Repeat source along `dim`, where it has size 1 (inferred when omitted)."""
    source, out = _tile(source, "broadcast source"), _tile(out, "broadcast out")
    check(tile.BroadcastOp(source.value, out.value, _dims(dim, source, out, "broadcast")))


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
    "exp", "ln", "relu", "abs", "sqrt", "rsqrt", "rec", "cast", "fill",
    "reduce_sum", "reduce_max", "reduce_min", "broadcast",
    "block_idx", "sub_block_idx", "pipelined", "element_type", "memref_type",
]
