"""What the tuner reads off a kernel's IR without simulating it.

* `static_capacity_error`: the tile-level buffers that are live at one program point
  need more bytes of one scope than the chip has, even at one version each (versions and
  alignment only add), so no schedule can place them: the variant is invalid before any
  compile.
* `pipe_busy_bound`: a lower bound on the simulated cycles of a compiled kernel: per
  core function, the sum of `ascend.ii` over the single-pipe ops of each pipe, times the
  static trip counts of the loops around them (the simulator starts an op no earlier
  than the previous op of its pipe plus that op's ii). It subsumes trip x ResMII.
* `bytes_per_scope`: the planned on-chip footprint per scope (the highest end of a
  `pointer_cast` version).
"""

from __future__ import annotations

from math import prod

from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import IntegerAttr, MemRefType, ModuleOp
from xdsl.ir import Operation, SSAValue

from ascend_mlir.analysis.views import in_branch
from ascend_mlir.dialects import ascend, hivm


def _constant(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def _trip_count(loop: scf.ForOp) -> int | None:
    lb, ub, step = (_constant(v) for v in (loop.lb, loop.ub, loop.step))
    if lb is None or ub is None or step is None or step <= 0:
        return None
    return max(0, -(-(ub - lb) // step))


def _executions(op: Operation) -> int | None:
    """How often `op` runs in one block: the product of its loops' trip counts."""
    count = 1
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        if isinstance(parent, scf.ForOp):
            trips = _trip_count(parent)
            if trips is None:
                return None
            count *= trips
        parent = parent.parent_op()
    return count


def pipe_busy_bound(module: ModuleOp) -> int | None:
    """Lower bound on the cycles of one block (None when a trip count is not static).
    Ops under an scf.if are left out (they may not run), which keeps it a bound."""
    best = 0
    for function in module.walk():
        if not isinstance(function, func.FuncOp) or function.body.blocks.first is None:
            continue
        busy: dict[str, int] = {}
        for op in function.walk():
            pipes = hivm.op_pipes(op)
            task = ascend.task_of(op)
            if len(pipes) != 1 or task is None or in_branch(op):
                continue
            runs = _executions(op)
            if runs is None:
                return None
            busy[pipes[0]] = busy.get(pipes[0], 0) + max(1, task.ii) * runs
        best = max([best, *busy.values()])
    return best


def _memref_bytes(t: MemRefType) -> int | None:
    from ascend_mlir.analysis.latency_model import element_bytes

    shape = t.get_shape()
    if any(d < 0 for d in shape):
        return None
    return prod(shape) * element_bytes(t.element_type)


def bytes_per_scope(module: ModuleOp) -> dict[str, int]:
    """Planned bytes per on-chip scope, the largest over the module's functions."""
    out: dict[str, int] = {}
    for op in module.walk():
        if not isinstance(op, hivm.PointerCastOp):
            continue
        scope = hivm.scope_of(op.result)
        size = _memref_bytes(op.result.type) if isinstance(op.result.type, MemRefType) else None
        ranges = [_address_range(a) for a in op.addrs]
        if scope is None or size is None or any(r is None for r in ranges):
            continue
        end = max(r[1] for r in ranges if r is not None) + size
        out[scope] = max(out.get(scope, 0), end)
    return dict(sorted(out.items()))


def _address_range(value: SSAValue, depth: int = 0) -> tuple[int, int] | None:
    """The smallest and largest value of an address: a constant, or multi-buffer's
    `base + (iv mod V) * size` (arith on constants, remainders, casts and selects)."""
    constant = _constant(value)
    if constant is not None:
        return constant, constant
    op = value.owner
    if depth > 16 or not isinstance(op, Operation):
        return None
    if isinstance(op, (arith.RemUIOp, arith.RemSIOp)):
        divisor = _constant(op.rhs)
        return (0, divisor - 1) if divisor and divisor > 0 else None
    if isinstance(op, arith.IndexCastOp):
        return _address_range(op.input, depth + 1)
    if isinstance(op, (arith.AddiOp, arith.MuliOp, arith.SelectOp)):
        if isinstance(op, arith.SelectOp):
            a, b = _address_range(op.lhs, depth + 1), _address_range(op.rhs, depth + 1)
            return None if a is None or b is None else (min(a[0], b[0]), max(a[1], b[1]))
        a, b = _address_range(op.lhs, depth + 1), _address_range(op.rhs, depth + 1)
        if a is None or b is None:
            return None
        if isinstance(op, arith.AddiOp):
            return a[0] + b[0], a[1] + b[1]
        products = [x * y for x in a for y in b]
        return min(products), max(products)
    return None


def static_capacity_error(tile_module: ModuleOp, chip) -> str | None:
    """Why the tile-level buffers cannot fit `chip` at one version each (None: they may)."""
    for function in tile_module.walk():
        if isinstance(function, func.FuncOp) and function.body.blocks.first is not None:
            problem = _function_capacity_error(function, chip)
            if problem:
                return problem
    return None


def _function_capacity_error(function: func.FuncOp, chip) -> str | None:
    from ascend_mlir.analysis.views import users_through_views

    block = function.body.blocks.first
    assert block is not None
    top = {op: i for i, op in enumerate(block.ops)}
    live: dict[str, list[tuple[int, int, int]]] = {}
    for op in function.walk():
        if not isinstance(op, memref.AllocOp) or not isinstance(op.memref.type, MemRefType):
            continue
        scope = hivm.scope_of(op.memref.type)
        size = _memref_bytes(op.memref.type)
        if scope in (None, "gm") or size is None or scope not in chip.capacity:
            continue
        uses = [_top_position(u, top) for u in users_through_views(op.memref, with_views=True)]
        uses = uses or [_top_position(op, top)]
        live.setdefault(scope, []).append((min(uses), max(uses), size))
    for scope, ranges in sorted(live.items()):
        need = max(sum(size for lo, hi, size in ranges if lo <= point <= hi) for point, _, _ in ranges)
        if need > chip.capacity[scope]:
            return (f"{scope} overflow before scheduling: buffers live together need {need} bytes "
                    f"at one version each, capacity {chip.capacity[scope]}")
    return None


def _top_position(op: Operation, top: dict[Operation, int]) -> int:
    while op not in top:
        parent = op.parent_op()
        if parent is None:
            return 0
        op = parent
    return top[op]
