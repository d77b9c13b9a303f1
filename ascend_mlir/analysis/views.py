"""Memref views, and the IR adapter of the alias analysis (`ascend_mlir.analysis.aliasing`).

`footprint_of(value)` follows a memref SSA value back through its views (subview, cast,
reinterpret_cast, collapse/expand_shape, memory_space_cast) to its root (a
`memref.alloc`, a kernel argument, or a `hivm.hir.pointer_cast` into its scope's memory)
and returns the bytes it denotes as a plain-data `Footprint`. Index arithmetic
(`arith` constants, add/sub/mul, index casts, remui/remsi and divui/divsi/floordivsi by
constants) becomes an `Affine` over symbols: the SSA values it cannot see through (loop
variables, block ids, function arguments), so two accesses that use the same unknown
value still compare. Pass `names={iv: "iv"}` to name symbols for IR-free callers.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from math import prod

from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from ascend_mlir.analysis.aliasing import Affine, Footprint, ScopeRoot, floor_div, modulo
from ascend_mlir.analysis.value_bounds import trunc_div

VIEW_OPS = (
    memref.SubviewOp,
    memref.CastOp,
    memref.ReinterpretCastOp,
    memref.CollapseShapeOp,
    memref.ExpandShapeOp,
    memref.MemorySpaceCastOp,
)


def views_of(value: SSAValue) -> Iterator[SSAValue]:
    """`value` and every view of it, transitively: the same memory under other types."""
    yield value
    for use in value.uses:
        op = use.operation
        if isinstance(op, VIEW_OPS) and op.operands[0] is value and op.results:
            yield from views_of(op.results[0])


def users_through_views(value: SSAValue, *, with_views: bool = False) -> list[Operation]:
    """The ops that use the memory of `value`: the users of it and of every view of it
    (the views themselves only `with_views`)."""
    out: list[Operation] = []
    for view in views_of(value):
        for use in view.uses:
            op = use.operation
            if with_views or not (isinstance(op, VIEW_OPS) and op.operands[0] is view):
                out.append(op)
    return out


def view_root(value: SSAValue) -> SSAValue:
    """The value `value` is a view of, through any chain of views (itself if none)."""
    while isinstance(value.owner, VIEW_OPS):
        value = value.owner.operands[0]
    return value


# ----------------------------------------------------------------------------- index arithmetic


def _constant(value: SSAValue) -> int | None:
    from ascend_mlir.analysis.latency_model import constant_int

    return constant_int(value)


_CASTS = ("arith.index_cast", "arith.index_castui", "arith.extui", "arith.extsi")


def affine_of(value: SSAValue) -> Affine:
    """`value` as const + sum(coeff * symbol); what is not understood is a symbol."""
    c = _constant(value)
    if c is not None:
        return Affine(c)
    owner = value.owner
    if isinstance(owner, Operation):
        if owner.name in _CASTS:
            return affine_of(owner.operands[0])
        lhs_rhs = _binary(owner)
        if lhs_rhs is not None:
            return lhs_rhs
    return Affine.symbol(value)


def _binary(owner: Operation) -> Affine | None:
    if len(owner.operands) != 2:
        return None
    lhs, rhs = owner.operands
    if isinstance(owner, arith.AddiOp):
        return affine_of(lhs) + affine_of(rhs)
    if isinstance(owner, arith.SubiOp):
        return affine_of(lhs) - affine_of(rhs)
    if isinstance(owner, arith.MuliOp):
        a, b = affine_of(lhs), affine_of(rhs)
        if b.is_constant:
            return a.scale(b.const)
        if a.is_constant:
            return b.scale(a.const)
        return None
    divisor = _constant(rhs)
    if divisor is None or divisor <= 0:
        return None
    inner = affine_of(lhs)
    if owner.name in ("arith.remui", "arith.remsi"):
        # indices are non-negative, where remsi agrees with mod
        return modulo(inner, divisor)
    if owner.name in ("arith.divui", "arith.divsi", "arith.floordivsi"):
        return floor_div(inner, divisor)
    return None


# ----------------------------------------------------------------------------- views


@dataclass(frozen=True)
class View:
    """A memref value as bytes of a root: base offset, per-dimension size and stride
    (in bytes); None where unknown."""

    root: Hashable | None
    scope: str | None
    base: Affine | None
    shape: tuple[int, ...] | None
    strides: tuple[int, ...] | None
    elem: int

    def footprint(self) -> Footprint:
        if self.shape is None or self.strides is None:
            return Footprint(self.root, self.scope, self.base, None, self.elem)
        return Footprint(self.root, self.scope, self.base, tuple(zip(self.shape, self.strides, strict=False)), self.elem)


def _scope(value: SSAValue) -> str | None:
    from ascend_mlir.analysis.latency_model import scope_of

    return scope_of(value.type)


def _elem_bytes(t: MemRefType) -> int:
    from ascend_mlir.analysis.latency_model import element_bytes
    from ascend_mlir.chips import ChipError

    try:
        return element_bytes(t.element_type)
    except ChipError:  # an unknown element type: count bytes as elements
        return 1


def _type_layout(t: MemRefType, elem: int) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None, int | None]:
    """(shape, byte strides, byte offset) of a memref type, None where dynamic."""
    shape = tuple(t.get_shape())
    shape_known = all(d >= 0 for d in shape)
    try:
        strides = t.get_strides()
        offset = t.get_offset()
    except (NotImplementedError, AttributeError, ValueError):
        strides, offset = None, None
    byte_strides = None
    known = [s for s in strides or () if isinstance(s, int) and s != DYNAMIC_INDEX and s >= 0]
    if strides is not None and len(known) == len(strides):
        byte_strides = tuple(s * elem for s in known)
    byte_offset = offset * elem if isinstance(offset, int) and offset != DYNAMIC_INDEX else None
    return (shape if shape_known else None), byte_strides, byte_offset


def _is_kernel_arg(value: SSAValue) -> bool:
    if not isinstance(value, BlockArgument) or not isinstance(value.owner, Block):
        return False
    return isinstance(value.owner.parent_op(), func.FuncOp)


def view_of(value: SSAValue) -> View:
    """The bytes `value` (a memref) denotes; see the module docstring."""
    t = value.type
    if not isinstance(t, MemRefType):
        return View(None, None, None, None, None, 1)
    elem = _elem_bytes(t)
    owner = value.owner
    if isinstance(owner, memref.SubviewOp):
        return _subview(owner, elem)
    if isinstance(owner, VIEW_OPS):
        return _reshaped(value, view_of(owner.operands[0]), elem)
    shape, strides, offset = _type_layout(t, elem)
    scope = _scope(value)
    if owner.__class__.__name__ == "PointerCastOp" and isinstance(owner, Operation):
        return _pointer_cast(owner, scope, shape, strides, elem)
    if isinstance(owner, memref.AllocOp | memref.AllocaOp) or _is_kernel_arg(value):
        base = Affine(offset) if offset is not None else None
        return View(value, scope, base, shape, strides, elem)
    return View(None, scope, None, shape, strides, elem)


def _pointer_cast(op: Operation, scope: str | None, shape, strides, elem: int) -> View:
    addrs = [affine_of(a) for a in op.operands if not isinstance(a.type, MemRefType)][: _address_count(op)]
    root = ScopeRoot(scope) if scope is not None else None
    if len(addrs) == 1:
        return View(root, scope, addrs[0], shape, strides, elem)
    # several addresses: one of them (a multi-buffer); their hull, when static
    if addrs and all(a.is_constant for a in addrs) and shape is not None and strides is not None:
        lo, hi = min(a.const for a in addrs), max(a.const for a in addrs)
        span = sum((n - 1) * s for n, s in zip(shape, strides, strict=False)) + elem if all(shape) else 0
        return View(root, scope, Affine(lo), (hi - lo + span,), (1,), 1)
    return View(root, scope, None, None, None, elem)


def _address_count(op: Operation) -> int:
    addrs = getattr(op, "addrs", None)
    return len(addrs) if addrs is not None else 1


def _subview(op: memref.SubviewOp, elem: int) -> View:
    src = view_of(op.source)
    if src.base is None or src.strides is None:
        return View(src.root, src.scope, None, None, None, elem)
    dyn_offsets = iter(op.offsets)
    dyn_sizes = iter(op.sizes)
    dyn_strides = iter(op.strides)
    offsets = [affine_of(next(dyn_offsets)) if o == DYNAMIC_INDEX else Affine(o) for o in op.static_offsets.get_values()]
    # a dynamic size (a partial tile) counts as its static bound: a superset of the bytes
    sizes = [_size_bound(next(dyn_sizes)) if s == DYNAMIC_INDEX else s for s in op.static_sizes.get_values()]
    steps = [_constant(next(dyn_strides)) if s == DYNAMIC_INDEX else s for s in op.static_strides.get_values()]
    if len(offsets) != len(src.strides):
        return View(src.root, src.scope, None, None, None, elem)
    base = src.base
    for off, stride in zip(offsets, src.strides, strict=False):
        base = base + off.scale(stride)
    result_type = op.result.type
    assert isinstance(result_type, MemRefType)
    if any(s is None for s in sizes) or any(s is None or s < 0 for s in steps):
        return View(src.root, src.scope, base, None, None, elem)
    dims = [(int(n), stride * int(step)) for n, stride, step in zip(sizes, src.strides, steps, strict=False)]  # type: ignore[arg-type]
    # rank-reducing subviews drop unit dimensions (which ones does not matter: a unit
    # dimension is only ever indexed at 0)
    kept = len(result_type.get_shape())
    drop = len(dims) - kept
    if drop > 0:
        reduced = []
        for d in dims:
            if drop and d[0] == 1:
                drop -= 1
                continue
            reduced.append(d)
        dims = reduced
    if len(dims) != kept:
        return View(src.root, src.scope, base, None, None, elem)
    return View(src.root, src.scope, base, tuple(n for n, _ in dims), tuple(s for _, s in dims), elem)


def _size_bound(value: SSAValue) -> int | None:
    from ascend_mlir.analysis.size_bounds import upper_bound

    bound = upper_bound(value)
    return None if bound is None else max(bound, 0)


def partial_extent(value: SSAValue) -> Hashable | None:
    """For a view with dynamic sizes (a partial tile), a key of the bytes it denotes:
    two views with equal keys denote the same bytes whatever the sizes are at run time
    (same root, same base offset, the same size values, the same strides). None for a
    view without dynamic sizes or one the analysis cannot describe."""
    owner = value.owner
    while isinstance(owner, memref.CastOp | memref.MemorySpaceCastOp):
        value = owner.operands[0]
        owner = value.owner
    if not isinstance(owner, memref.SubviewOp) or not owner.sizes:
        return None
    view = view_of(value)
    if view.root is None or view.base is None or view.strides is None:
        return None
    dynamic = iter(owner.sizes)
    sizes = tuple(next(dynamic) if s == DYNAMIC_INDEX else s for s in owner.static_sizes.get_values())
    return (view.root, view.base, sizes, view.strides)


def _reshaped(value: SSAValue, src: View, elem: int) -> View:
    """cast / reinterpret_cast / collapse / expand / memory_space_cast: the same root;
    the layout from the result type (a reshape keeps the bytes, so when the result type
    does not say, the source's footprint as one contiguous-or-not set stays valid)."""
    t = value.type
    assert isinstance(t, MemRefType)
    owner = value.owner
    shape, strides, offset = _type_layout(t, elem)
    base = src.base
    if isinstance(owner, memref.ReinterpretCastOp):
        base = _reinterpret_base(owner, src, elem)
        return View(src.root, src.scope, base, shape, strides, elem)
    if isinstance(owner, memref.CastOp | memref.MemorySpaceCastOp):
        if src.shape is not None and src.strides is not None:
            return View(src.root, src.scope, base, src.shape, src.strides, elem)
        return View(src.root, src.scope, base, shape, strides, elem)
    # collapse/expand: the same bytes; keep the source's set when it is known
    if src.shape is not None and src.strides is not None:
        if shape is not None and strides is not None and _contiguous(src) and prod(shape) == prod(src.shape):
            return View(src.root, src.scope, base, shape, _row_major(shape, elem), elem)
        return View(src.root, src.scope, base, src.shape, src.strides, elem)
    return View(src.root, src.scope, None, None, None, elem)


def _row_major(shape: tuple[int, ...], elem: int) -> tuple[int, ...]:
    strides, acc = [], elem
    for n in reversed(shape):
        strides.append(acc)
        acc *= max(n, 1)
    return tuple(reversed(strides))


def _contiguous(view: View) -> bool:
    assert view.shape is not None and view.strides is not None
    return tuple(s for n, s in zip(view.shape, view.strides, strict=False) if n > 1) == tuple(
        s for n, s in zip(view.shape, _row_major(view.shape, view.elem), strict=False) if n > 1
    )


def _reinterpret_base(op: memref.ReinterpretCastOp, src: View, elem: int) -> Affine | None:
    """reinterpret_cast sets an absolute element offset into the source's base buffer."""
    if src.root is None:
        return None
    static = list(op.static_offsets.get_values())
    if len(static) != 1:
        return None
    offset = affine_of(op.offsets[0]) if static[0] == DYNAMIC_INDEX else Affine(static[0])
    root_base = _root_base(op.source)
    return None if root_base is None else root_base + offset.scale(elem)


def _root_base(value: SSAValue) -> Affine | None:
    """Byte offset of the underlying buffer's start (a pointer_cast's address, else 0)."""
    root = view_root(value)
    view = view_of(root)
    if view.base is None:
        return None
    t = root.type
    if isinstance(t, MemRefType):
        _, _, offset = _type_layout(t, _elem_bytes(t))
        if offset:
            return view.base - offset
    return view.base


def footprint_of(value: SSAValue, names: dict[Hashable, Hashable] | None = None) -> Footprint:
    """The bytes the memref `value` denotes (symbols renamed by `names`)."""
    fp = view_of(value).footprint()
    return fp.rename(names) if names else fp


def defined_inside(value: Hashable, region_op: Operation) -> bool:
    """Whether `value` (a symbol of a footprint) is computed inside `region_op`, so may
    differ from one of its iterations to the next."""
    if isinstance(value, BlockArgument):
        parent = value.owner.parent_op() if isinstance(value.owner, Block) else None
        return parent is not None and (parent is region_op or region_op.is_ancestor(parent))
    if isinstance(value, SSAValue) and isinstance(value.owner, Operation):
        return region_op.is_ancestor(value.owner) and value.owner is not region_op
    return False


def loop_bounds(loop: Operation) -> tuple[int | None, int | None, int | None]:
    """(lower bound, trip count, step) of an scf.for when static, else Nones."""
    from xdsl.dialects import scf

    if not isinstance(loop, scf.ForOp):
        return None, None, None
    lb, ub, step = _constant(loop.lb), _constant(loop.ub), _constant(loop.step)
    if lb is None or ub is None or step is None or step <= 0:
        return lb, None, step
    return lb, max(0, -(-(ub - lb) // step)), step


def widen_out_of(fp: Footprint, loop: Operation) -> Footprint:
    """`fp` (an access inside `loop`) over all iterations of `loop`: what another
    iteration, or the code after the loop, may see of it. The loop variable of an
    `scf.for` with static bounds becomes a strided dimension; any other value defined in
    the loop (a changing symbol) widens to the whole root."""
    if fp.base is None:
        return fp
    from xdsl.dialects import scf

    iv = loop.body.block.args[0] if isinstance(loop, scf.ForOp) else None
    for sym in fp.base.symbols():
        if sym is iv and iv is not None:
            lb, count, step = loop_bounds(loop)
            fp = fp.widen(iv, lb, count, step)
            if fp.base is None:
                return fp
        elif defined_inside(sym, loop):
            return Footprint.whole(fp.root, fp.scope) if fp.root is not None else Footprint.unknown(fp.scope)
    return fp


# ----------------------------------------------------------------------------- symbol ranges


def enclosing_function(op: Operation) -> func.FuncOp | None:
    """The function `op` stands in (None: it is in none, a module-level op)."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        parent = parent.parent_op()
    return parent


def _block_index_range(op: Operation) -> tuple[Hashable, tuple[int, int]] | None:
    """The block id an op reads, in [0, grid) when its kernel's grid is static."""
    if op.name not in ("tile.block_idx", "hivm.hir.get_block_idx") or not op.results:
        return None
    from ascend_mlir.dialects.ascend import launch_grid

    function = enclosing_function(op)
    if function is None:
        return None
    return op.results[0], (0, launch_grid(function) - 1)


def symbol_ranges(op: Operation) -> dict[Hashable, tuple[int, int]] | None:
    """Inclusive ranges of the loop variables of every `scf.for` around `op` (bounds
    evaluated over the outer loops' ranges) and of the kernel's block id; None when one
    of those loops never runs (then `op` never runs either). Symbols without a static
    range are left out (unbounded)."""
    from xdsl.dialects import scf

    from ascend_mlir.analysis.value_bounds import affine_range, iteration_range

    loops: list[scf.ForOp] = []
    node = op.parent_op()
    while node is not None:
        if isinstance(node, scf.ForOp):
            loops.append(node)
        node = node.parent_op()
    ranges: dict[Hashable, tuple[int, int]] = {}
    function = loops[-1] if loops else op
    while function is not None and not isinstance(function, func.FuncOp):
        function = function.parent_op()
    if function is not None:
        for inner in function.walk():
            found = _block_index_range(inner)
            if found is not None:
                ranges[found[0]] = found[1]
    for loop in reversed(loops):
        lb = affine_range(affine_of(loop.lb), ranges)
        ub = affine_range(affine_of(loop.ub), ranges)
        values = iteration_range(lb, ub, _constant(loop.step))
        if values is False:
            return None
        if values is not None:
            ranges[loop.body.block.args[0]] = values
    return ranges


def widened_out_of(fp: Footprint, ops: list[Operation]) -> Footprint:
    """`fp` widened out of each loop or if of `ops`, innermost first."""
    from xdsl.dialects import scf

    for loop in reversed(ops):
        if isinstance(loop, scf.ForOp | scf.WhileOp | scf.IfOp):
            fp = widen_out_of(fp, loop)
    return fp


def fixed_symbols(fp: Footprint, loop: Operation, iv: SSAValue) -> Footprint:
    """A footprint whose symbols (but the loop variable) are the same in every iteration;
    else the whole root (a value computed in the loop may differ between iterations)."""
    if fp.base is None:
        return fp
    if any(sym is not iv and defined_inside(sym, loop) for sym in fp.base.symbols()):
        return Footprint.whole(fp.root, fp.scope) if fp.root is not None else Footprint.unknown(fp.scope)
    return fp


def in_branch(op: Operation) -> bool:
    """Whether `op` lies in a branch of an `scf.if` of its function (a run may not take it)."""
    from xdsl.dialects import scf

    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        if isinstance(parent, scf.IfOp):
            return True
        parent = parent.parent_op()
    return False


# the most points `enumerated_values` evaluates an expression at (block ids times the
# iterations of the loops it reads)
MAX_ENUMERATED_POINTS = 4096


_INT_OPS = {
    "arith.addi": lambda a, b: a + b,
    "arith.subi": lambda a, b: a - b,
    "arith.muli": lambda a, b: a * b,
    "arith.divsi": lambda a, b: trunc_div(a, b) if b else None,
    "arith.divui": lambda a, b: a // b if b > 0 and a >= 0 else None,
    "arith.floordivsi": lambda a, b: a // b if b else None,
    "arith.ceildivsi": lambda a, b: -(-a // b) if b else None,
    "arith.remsi": lambda a, b: a - trunc_div(a, b) * b if b else None,
    "arith.remui": lambda a, b: a % b if b > 0 and a >= 0 else None,
    "arith.maxsi": max,
    "arith.minsi": min,
}


def _leaf_values(v: SSAValue) -> range | None:
    """The values a leaf of an index expression takes: a constant-bound loop's iterations,
    a static grid's block ids; None for any other leaf."""
    owner = v.owner
    if isinstance(owner, Block):
        loop = owner.parent_op()
        if loop is None or v is not owner.args[0]:
            return None
        lb, trips, step = loop_bounds(loop)
        if lb is None or trips is None or step is None:
            return None
        return range(lb, lb + trips * step, step)
    found = _block_index_range(owner)
    return None if found is None else range(found[1][0], found[1][1] + 1)


def _expression(values: list[SSAValue]) -> tuple[dict[SSAValue, range], list[Operation]] | None:
    """The leaves of index expressions with their values, and their operations in an
    order that computes each after its operands (None: something `_leaf_values` and
    `_INT_OPS` do not cover)."""
    leaves: dict[SSAValue, range] = {}
    order: list[Operation] = []
    seen: set[SSAValue] = set()

    def visit(v: SSAValue) -> bool:
        if v in seen or _constant(v) is not None:
            return True
        seen.add(v)
        owner = v.owner
        if isinstance(owner, Operation) and (owner.name in _CASTS or owner.name in _INT_OPS):
            if not all(map(visit, owner.operands)):
                return False
            order.append(owner)
            return True
        found = _leaf_values(v)  # a loop variable or the block id, else not evaluated
        if found is not None:
            leaves[v] = found
        return found is not None

    return (leaves, order) if all(map(visit, values)) else None


def _evaluated(order: list[Operation], env: dict[SSAValue, int | None]) -> bool:
    """Compute `order`'s results into `env` (False where one divides by zero)."""
    for op in order:
        args = [env[o] if o in env else _constant(o) for o in op.operands]
        if any(a is None for a in args):
            return False
        env[op.results[0]] = args[0] if op.name in _CASTS else _INT_OPS[op.name](*args)
    return True


def enumerated_values(values: list[SSAValue]) -> list[tuple[dict[SSAValue, int], list[int]]] | None:
    """Index expressions `affine_of` cannot bound (a product of two loop variables, `b * b`
    of the block id) evaluated at every point: each block id of a static grid, each
    iteration of the enclosing constant-bound loops they read. Per point, its leaves'
    values (to name in a message) and the expressions' values (one point without leaves:
    a size computed from constants). None where a leaf is something else (an argument, a
    loaded value), there are more than MAX_ENUMERATED_POINTS points or none, or an
    operation divides by zero somewhere: only values the kernel computes are reported,
    never a widened bound."""
    from itertools import product

    found = _expression(values)
    if found is None:
        return None
    leaves, order = found
    if prod(len(r) for r in leaves.values()) > MAX_ENUMERATED_POINTS:
        return None
    names = list(leaves)
    points: list[tuple[dict[SSAValue, int], list[int]]] = []
    for point in product(*(leaves[v] for v in names)):
        at = dict(zip(names, point, strict=True))
        env: dict[SSAValue, int | None] = dict(at)
        if not _evaluated(order, env):
            return None
        got = [env[v] if v in env else _constant(v) for v in values]
        if any(g is None for g in got):
            return None
        points.append((at, [g for g in got if g is not None]))
    return points or None
