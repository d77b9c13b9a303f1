"""Static upper bounds of dynamic sizes: what a partial tile can be at most.

On-chip buffers are static; a partial tile is a subview of one with a dynamic size,
written `min(T, n - off)` (`arith.minsi` / `arith.minui`, or `affine.min`). Every
analysis that must plan before the kernel runs (the latency the scheduler plans for,
the bytes a view may touch, the verifier's "fits in its buffer") asks this module for
the largest value such a size can take:

* a constant is its own bound; `index_cast`/`extui`/`extsi` keep the bound;
* `minsi`/`minui` (and `affine.min` over constants and values) is bounded by the
  smallest bound among its operands (one known operand suffices);
* `select` and `maxsi`/`maxui` by the largest of both (both needed);
* `addi`/`muli` of bounded non-negative parts by their sum/product, `divui`/`divsi`
  and `remui`/`remsi` by a positive constant divisor as integer division does;
* otherwise unknown (None). A subview's dynamic size with no bound of its own is still
  bounded by its source's extent in that dimension (a subview stays inside its source:
  the verifier and the reference check it), which is how `memref<?xf32>` views of a
  `memref<512xf32>` buffer get 512.

Bounds are upper bounds only: the actual size may be anything from 0 to the bound
(a negative size is an error the reference reports at run time).
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, IntegerAttr, MemRefType
from xdsl.ir import Operation, SSAValue

__all__ = [
    "buffer_bounded_sizes", "dynamic_size_operands", "lower_bound", "origin_buffer_shape", "static_bound_shape",
    "trip_count_bounds", "upper_bound",
]

_SAME = ("arith.index_cast", "arith.index_castui", "arith.extui", "arith.extsi")
_MIN = ("arith.minsi", "arith.minui", "affine.min")
_MAX = ("arith.maxsi", "arith.maxui")
_VIEWS = (memref.CastOp, memref.MemorySpaceCastOp)


def _constant(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, Operation) and owner.name == "arith.constant":
        attr = owner.properties.get("value") or owner.attributes.get("value")
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    return None


def _affine_min_bound(op: Operation) -> int | None:
    """affine.min: the smallest constant result of its map (results over dims/symbols
    are not bounded here), or the smallest operand bound of an identity result."""
    affine_map = getattr(op, "map", None)
    bounds: list[int] = []
    results = getattr(getattr(affine_map, "data", None), "results", ())
    for expr in results:
        value = getattr(expr, "value", None)
        if isinstance(value, int):
            bounds.append(value)
    bounds += [b for b in (upper_bound(v) for v in op.operands) if b is not None] if len(results) == len(op.operands) else []
    return min(bounds) if bounds else None


def _arith_bound(op: Operation) -> int | None:
    bounds = [upper_bound(v) for v in op.operands]
    if op.name in _MIN:
        known = [b for b in bounds if b is not None]
        return min(known) if known else None
    if op.name in _MAX or op.name == "arith.select":
        parts = bounds[1:] if op.name == "arith.select" else bounds
        return None if any(b is None for b in parts) else max(b for b in parts if b is not None)
    if len(bounds) != 2:
        return None
    lhs, rhs = bounds
    if lhs is None:
        return None
    divisor = _constant(op.operands[1])
    if op.name in ("arith.divui", "arith.divsi", "arith.ceildivui", "arith.ceildivsi") and divisor and divisor > 0:
        return -(-lhs // divisor) if "ceil" in op.name else lhs // divisor
    if op.name in ("arith.remui", "arith.remsi") and divisor and divisor > 0:
        return min(lhs, divisor - 1)
    if rhs is None or lhs < 0 or rhs < 0:
        return None
    if op.name == "arith.addi":
        return lhs + rhs
    if op.name == "arith.muli":
        return lhs * rhs
    return None


def upper_bound(value: SSAValue) -> int | None:
    """The largest value the index/integer `value` can take, when that is decidable
    from the IR (see the module docstring), else None."""
    constant = _constant(value)
    if constant is not None:
        return constant
    owner = value.owner
    if not isinstance(owner, Operation):
        return None
    if owner.name in _SAME:
        return upper_bound(owner.operands[0])
    if owner.name == "affine.min":
        return _affine_min_bound(owner)
    return _arith_bound(owner)


def lower_bound(value: SSAValue) -> int:
    """The smallest value the index/integer `value` can take that the IR shows (index
    values are non-negative: 0 when nothing more is known): constants, `max` by its
    largest operand bound (a trip count `max(steps, 1)` is at least 1), `min` by its
    smallest, sums, products and divisions by a constant of bounded parts."""
    constant = _constant(value)
    if constant is not None:
        return constant
    owner = value.owner
    if not isinstance(owner, Operation):
        return 0
    if owner.name in _SAME:
        return lower_bound(owner.operands[0])
    bounds = [lower_bound(v) for v in owner.operands]
    if owner.name in _MAX:
        return max(bounds)
    if owner.name in _MIN and bounds:
        return max(0, min(bounds))
    divisor = _constant(owner.operands[1]) if len(bounds) == 2 else None
    if owner.name in ("arith.divui", "arith.divsi") and divisor:
        return max(0, bounds[0] // divisor) if divisor > 0 else 0
    if owner.name == "arith.addi" and len(bounds) == 2:
        return max(0, bounds[0] + bounds[1])
    if owner.name == "arith.muli" and len(bounds) == 2 and min(bounds) >= 0:
        return bounds[0] * bounds[1]
    return 0


def _integer_constant(value: SSAValue) -> int | None:
    """An `arith.constant` integer, 0 included (`_constant` reads the attribute with `or`,
    and IntegerAttr(0) is falsy: its bounds of a 0 are left as they are here)."""
    owner = value.owner
    if isinstance(owner, Operation) and owner.name == "arith.constant":
        attr = owner.properties.get("value")
        attr = owner.attributes.get("value") if attr is None else attr
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    return None


def trip_count_bounds(loop: scf.ForOp) -> tuple[int, int | None]:
    """(fewest, most or None) trips of an `scf.for`, from the static bounds of its upper
    bound when its lower bound and step are constants (the lowered L0 K loop of a partial
    tile runs max(ceil(real_k / step), 1) times, real_k at most its L1 buffer's K: between
    1 and that buffer's steps); (0, None) otherwise. ascend-verify-sync checks the counts
    in between; ascend-insert-sync asks whether a nested loop can run 0 times."""
    lb, step = _integer_constant(loop.lb), _integer_constant(loop.step)
    if lb is None or step is None or step <= 0:
        return 0, None
    fewest = max(0, -(-(lower_bound(loop.ub) - lb) // step))
    ub_max = upper_bound(loop.ub)
    return fewest, None if ub_max is None else max(0, -(-(ub_max - lb) // step))


def _subview_bounds(op: memref.SubviewOp) -> list[int | None]:
    """Bounds of a subview's sizes (before rank reduction)."""
    source = static_bound_shape(op.source)
    dynamic = iter(op.sizes)
    bounds: list[int | None] = []
    for dim, size in enumerate(op.static_sizes.get_values()):
        if size != DYNAMIC_INDEX:
            bounds.append(size)
            continue
        bound = upper_bound(next(dynamic))
        extent = source[dim] if source is not None and dim < len(source) else None
        if extent is not None:
            bound = extent if bound is None else min(bound, extent)
        bounds.append(bound)
    return bounds


def static_bound_shape(value: SSAValue) -> tuple[int, ...] | None:
    """Per dimension, the largest extent the memref `value` can have: its static shape
    where the type says it, else a bound through its subview/cast chain; None when a
    dimension has no bound."""
    t = value.type
    if not isinstance(t, MemRefType):
        return None
    shape = list(t.get_shape())
    if all(d != DYNAMIC_INDEX for d in shape):
        return tuple(shape)
    owner = value.owner
    bounds: list[int | None]
    if isinstance(owner, memref.SubviewOp):
        bounds = _subview_bounds(owner)
        if len(bounds) != len(shape):  # rank-reducing: drop unit sizes from the left, as MLIR does
            bounds = _reduce_rank(bounds, shape)
    elif isinstance(owner, _VIEWS):
        source = static_bound_shape(owner.operands[0])
        bounds = list(source) if source is not None and len(source) == len(shape) else [None] * len(shape)
    else:
        bounds = [None] * len(shape)
    merged = [d if d != DYNAMIC_INDEX else b for d, b in zip(shape, bounds)]
    if any(b is None for b in merged):
        return None
    return tuple(b for b in merged if b is not None)


def origin_buffer_shape(value: SSAValue) -> tuple[int, ...] | None:
    """The static shape of the buffer a partial tile starts at: `value` itself when its
    type is static, else the source of a same-rank subview at offsets 0 (and steps 1),
    through such subviews and casts; None when the view starts elsewhere in its buffer.
    A partial L1 tile keeps its buffer's fractal layout (the NZ column blocks are the
    buffer's rows high), so the cube's moves address it with the buffer's geometry."""
    t = value.type
    if not isinstance(t, MemRefType):
        return None
    if all(d != DYNAMIC_INDEX for d in t.get_shape()):
        return tuple(t.get_shape())
    owner = value.owner
    if isinstance(owner, _VIEWS):
        return origin_buffer_shape(owner.operands[0])
    if not isinstance(owner, memref.SubviewOp) or owner.offsets or owner.strides:
        return None
    source = owner.source.type
    if (not isinstance(source, MemRefType) or len(source.get_shape()) != len(t.get_shape())
            or any(o != 0 for o in owner.static_offsets.get_values())
            or any(s != 1 for s in owner.static_strides.get_values())):
        return None
    return origin_buffer_shape(owner.source)


def _reduce_rank(bounds: list[int | None], shape: list[int]) -> list[int | None]:
    kept: list[int | None] = []
    drop = len(bounds) - len(shape)
    for b in bounds:
        if drop and b == 1:
            drop -= 1
            continue
        kept.append(b)
    return kept if len(kept) == len(shape) else [None] * len(shape)


def dynamic_size_operands(value: SSAValue) -> list[SSAValue]:
    """The SSA sizes that make `value`'s dynamic dimensions (a subview's dynamic size
    operands), in dimension order; [] for a static memref or an unknown producer."""
    owner = value.owner
    if isinstance(owner, memref.SubviewOp):
        return list(owner.sizes)
    if isinstance(owner, _VIEWS):
        return dynamic_size_operands(owner.operands[0])
    return []


def _dynamic_on_chip_views(module: Operation) -> Iterator[tuple[memref.SubviewOp, MemRefType]]:
    """(subview, its source type) for each view with dynamic sizes of an on-chip buffer."""
    from ascend_mlir.dialects.hivm import scope_of

    for op in module.walk():
        if not isinstance(op, memref.SubviewOp) or not op.sizes:
            continue
        source = op.source.type
        if isinstance(source, MemRefType) and scope_of(source) not in (None, "gm"):
            yield op, source


def buffer_bounded_sizes(module: Operation) -> list[tuple[memref.SubviewOp, int, int]]:
    """(subview, dim, extent) for each dynamic size of a view of an on-chip buffer that
    has no static bound of its own (no constant operand of a `min`, ...): only the
    buffer's extent from the view's offset bounds it, so whether it fits cannot be decided
    before the kernel runs (the reference reports a larger runtime size at the view)."""
    found = []
    for op, source in _dynamic_on_chip_views(module):
        extents = source.get_shape()
        dynamic = iter(op.sizes)
        for dim, size in enumerate(op.static_sizes.get_values()):
            if size == DYNAMIC_INDEX and upper_bound(next(dynamic)) is None and dim < len(extents):
                found.append((op, dim, extents[dim]))
    return found


def partial_tile_errors(module: Operation) -> list:
    """Located errors (diagnostics.OpError) for partial tiles whose size can be larger
    than their static buffer: a subview of an on-chip buffer whose dynamic size has a
    static bound (a constant operand of its `min`) beyond the buffer's extent from the
    view's offset. A size without a bound of its own is bounded by its buffer (the
    reference checks it at run time); decidable overflows are compile-time errors."""
    from ascend_mlir.op_errors import op_error

    errors = []
    for op, source in _dynamic_on_chip_views(module):
        extents = source.get_shape()
        offsets = op.static_offsets.get_values()
        dynamic = iter(op.sizes)
        for dim, size in enumerate(op.static_sizes.get_values()):
            if size != DYNAMIC_INDEX:
                continue
            bound = upper_bound(next(dynamic))
            extent = extents[dim] if dim < len(extents) else DYNAMIC_INDEX
            if bound is None or extent == DYNAMIC_INDEX:
                continue
            room = extent - offsets[dim] if offsets[dim] != DYNAMIC_INDEX else extent
            if bound > room:
                errors.append(op_error(op, f"partial tile size can reach {bound} in dim {dim}, beyond its buffer "
                                           f"({room} elements from the offset of {source})"))
    return errors
