"""IR side of the dependence analysis: what each op of a loop body touches.

Turns ops of an `scf.for` body into `TaskInfo`s (pipes, latency, ii, accesses, DMA
paths) for `ascend_mlir.analysis.dependences`. What an access touches is the one alias
analysis's footprint (`ascend_mlir.analysis.views.footprint_of`: bytes of a root through
subviews, casts, reshapes and planned `pointer_cast`s), with the loop variable of the
loop being analysed named `dependences.IV`. A nested loop or `scf.if` is one task whose
accesses are the union of its body's (a nested loop's over all its iterations).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from math import prod
from typing import cast

from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, Operation, SSAValue

from ascend_mlir import hardware
from ascend_mlir.analysis.aliasing import Footprint
from ascend_mlir.analysis.dependences import IV, Access, BufferInfo, IterationLocal, TaskInfo
from ascend_mlir.analysis.views import defined_inside, footprint_of, partial_extent, users_through_views, widen_out_of
from ascend_mlir.chips import Chip
from ascend_mlir.dialects.ascend import loop_of as loop_schedule, task_of as schedule_task
from ascend_mlir.analysis.latency_model import (
    Cost,
    branches,
    constant_int,
    element_bytes,
    estimate,
    op_pipes,
    read_latencies,
    scope_of,
    seq,
    serial_loop,
)



def footprint_in_loop(value: SSAValue, iv: SSAValue | None) -> Footprint:
    """The bytes the memref `value` denotes (the alias analysis's footprint), with the
    loop variable `iv` of the loop being analysed named `IV`."""
    return footprint_of(value, {iv: IV} if iv is not None else None)


def mark_iteration_locals(tasks: list[BodyTask], loop: scf.ForOp) -> list[BodyTask]:
    """The tasks of `loop`'s body with every footprint symbol that is computed in the
    body (other than the loop variable) marked `IterationLocal`: dependences then
    compare it as one value within an iteration and as unknown across iterations."""
    out = []
    for task in tasks:
        accesses = tuple(_mark_locals(a, loop) for a in task.info.accesses)
        out.append(replace(task, info=replace(task.info, accesses=accesses)))
    return out


def _mark_locals(access: Access, loop: scf.ForOp) -> Access:
    base = access.footprint.base
    if base is None:
        return access
    local = {k: IterationLocal(k) for k in base.symbols() if defined_inside(k, loop)}
    return replace(access, footprint=access.footprint.rename(local)) if local else access


def _ins(op: Operation) -> tuple[SSAValue, ...]:
    ins = getattr(op, "ins", None)
    return tuple(ins) if ins is not None else tuple(op.operands)


def _outs(op: Operation) -> tuple[SSAValue, ...]:
    outs = getattr(op, "outs", None)
    return tuple(outs) if outs is not None else ()


def memref_reads_writes(op: Operation) -> tuple[tuple[SSAValue, ...], tuple[SSAValue, ...]]:
    """Memref operands read and written (the hivm pipe interface when present)."""
    reads = getattr(op, "memref_reads", None)
    writes = getattr(op, "memref_writes", None)
    if callable(reads) and callable(writes):
        # the hivm pipe interface: both return sequences of memref values
        return tuple(cast(Iterable[SSAValue], reads())), tuple(cast(Iterable[SSAValue], writes()))
    ins = tuple(v for v in _ins(op) if isinstance(v.type, MemRefType))
    outs = tuple(v for v in _outs(op) if isinstance(v.type, MemRefType))
    if op.name == "hivm.hir.mmadL1":
        ops = _ins(op)
        init = constant_int(ops[2]) if len(ops) > 2 else None
        if init != 1 and init != -1:
            ins = ins + outs  # accumulates into dst unless init is a constant true
    return ins, outs


def op_accesses(op: Operation, iv: SSAValue | None, chip: Chip | None = None) -> tuple[Access, ...]:
    pipes = op_pipes(op)
    if not pipes:
        return ()
    reads, writes = memref_reads_writes(op)
    early = read_latencies(op, chip) if chip is not None else {}
    # mmadL1's accumulator is touched by its cube part, after its MTE1 feed (the L1
    # reads, over at `early`: Access.fed). batchMmadL1's `early` is its last feed's end,
    # not when its first cube part begins.
    fed = max(early.values(), default=0) if op.name == "hivm.hir.mmadL1" else 0
    out: list[Access] = []
    for v in reads:
        pipe = pipes[-1] if v in writes else pipes[0]
        done = None if v in writes else early.get(v)
        out.append(Access(footprint_in_loop(v, iv), False, pipe, done=done, extent=partial_extent(v),
                          fed=fed if pipe == pipes[-1] else 0))
    for v in writes:
        extent = partial_extent(v)
        # a partial tile's footprint is its static bound: a superset, so not an exact write
        out.append(Access(footprint_in_loop(v, iv), True, pipes[-1], exact=extent is None and not
                          _has_dynamic_size(v), extent=extent, fed=fed))
    return tuple(out)


def _has_dynamic_size(value: SSAValue) -> bool:
    t = value.type
    return isinstance(t, MemRefType) and any(d < 0 for d in t.get_shape())


def op_paths(op: Operation) -> tuple[tuple[str, str], ...]:
    reads, writes = memref_reads_writes(op)
    paths = []
    for r in reads:
        for w in writes:
            s, d = scope_of(r.type), scope_of(w.type)
            if s is not None and d is not None and r is not w:
                paths.append((s, d))
    return tuple(sorted(set(paths)))


def op_cost(op: Operation) -> Cost | None:
    task = schedule_task(op)
    return None if task is None else Cost(task.latency, task.ii)


def loop_bounds(loop: scf.ForOp) -> tuple[int | None, int | None, int | None]:
    return constant_int(loop.lb), constant_int(loop.ub), constant_int(loop.step)


def trip_count(loop: scf.ForOp) -> int | None:
    lb, ub, step = loop_bounds(loop)
    if lb is None or ub is None or step is None or step <= 0:
        return None
    return max(0, -(-(ub - lb) // step))


def primary_pipe(pipes: Iterable[str], usage: dict[str, int] | None = None) -> str:
    """The pipe a multi-pipe task is scheduled on: the busiest one, else the compute
    pipe (mmadL1 runs MTE1 moves to feed M: M)."""
    pipes = tuple(pipes)
    if usage:
        return max(pipes, key=lambda p: (usage.get(p, 0), hardware.DATAFLOW_PIPES.index(p)))
    return next((p for p in hardware.COMPUTE_FIRST_PIPES if p in pipes), pipes[0])


@dataclass
class BodyTask:
    """One task of a loop body: the op (hivm op, nested loop or if) and its summary."""

    op: Operation
    info: TaskInfo
    pipe: str
    usage: dict[str, int]  # ii per pipe the task keeps busy

    @property
    def solver_pipes(self) -> tuple[str, ...]:
        """Pipes the task blocks in the modulo window: a hivm op its main pipe (mmadL1's
        MTE1 moves are part of its ii on M), a nested loop or if every pipe it uses."""
        if isinstance(self.op, scf.ForOp | scf.IfOp):
            return tuple(p for p in hardware.DATAFLOW_PIPES if p in self.info.pipes) or (self.pipe,)
        return (self.pipe,)

    @property
    def pipe_label(self) -> str:
        return "+".join(self.solver_pipes)


# (latency, ii) of a whole nested loop as one task, when already known (scheduled)
LoopCost = Callable[[scf.ForOp], Cost | None]


def _is_task_op(op: Operation) -> bool:
    return bool(op_pipes(op)) or isinstance(op, scf.ForOp | scf.IfOp)


def block_tasks(
    block: Block, iv: SSAValue | None, loop_cost: LoopCost, chip: Chip
) -> list[BodyTask]:
    """Tasks of a block in program order (ops without a pipe, like index arithmetic and
    subviews, are free scalar work and not tasks)."""
    return [task_of(op, iv, loop_cost, chip) for op in block.ops if _is_task_op(op)]


def _cost_of_op(op: Operation, chip: Chip) -> Cost:
    """The op's `#ascend.task` cost, else the chip's estimate."""
    cost = op_cost(op)
    return cost if cost is not None else Cost(*estimate(op, chip))


def _access_window(op: Operation, part: BodyTask, access: Access) -> tuple[int, int | None]:
    """(begin, done) of `access` by `part` as an access of the whole scheduled loop `op`:
    cycles after the loop's issue at which the first iteration's access begins and the
    last iteration's is over (its schedule: the part's start, the loop's II and trip
    count). (0, None), the whole loop, where the loop or the part has no schedule (or an
    if, whose parts are not scheduled within it) or the trip count is not known."""
    loop = loop_schedule(op) if isinstance(op, scf.ForOp) else None
    slot = schedule_task(part.op)
    if loop is None or slot is None or slot.start is None:
        return 0, None
    begin = slot.start + access.begin
    n = trip_count(op)  # type: ignore[arg-type]
    if n is None or n < 1:
        return begin, None
    over = access.done if access.done is not None else part.info.latency
    return begin, loop.ii * (n - 1) + slot.start + over


def _aggregate(op: Operation, parts: list[BodyTask], cost: Cost) -> BodyTask:
    """A nested loop or if as one task: its body's accesses (over every iteration of a
    loop), none of them exact, with its body's pipe usage and DMA paths. A scheduled
    loop's accesses say when, after its issue, they begin and are over (_access_window):
    its parent then sees its load stream start before its compute and its last loads end
    before its last compute (issue 18 item 4)."""
    accesses: list[Access] = []
    usage: dict[str, int] = {}
    paths: set[tuple[str, str]] = set()
    for p in parts:
        for a in p.info.accesses:
            fp = widen_out_of(a.footprint, op) if isinstance(op, scf.ForOp) else a.footprint
            begin, done = _access_window(op, p, a)
            accesses.append(Access(fp, a.write, a.pipe, exact=False, done=done, begin=begin))
        for k, v in p.usage.items():
            usage[k] = usage.get(k, 0) + v
        paths.update(p.info.paths)
    pipes = tuple(p for p in hardware.DATAFLOW_PIPES if p in usage) or ("S",)
    info = TaskInfo(op.name, pipes, cost.latency, cost.ii, tuple(accesses), tuple(sorted(paths)))
    return BodyTask(op, info, primary_pipe(pipes, usage), usage)


def task_of(op: Operation, iv: SSAValue | None, loop_cost: LoopCost, chip: Chip) -> BodyTask:
    if isinstance(op, scf.ForOp):
        parts = block_tasks(op.body.block, iv, loop_cost, chip)
        n = trip_count(op)
        cost = loop_cost(op)
        if cost is None:  # not scheduled yet: its body in sequence, n times
            body = seq(*[Cost(p.info.latency, p.info.ii) for p in parts]) if parts else Cost(1, 1)
            cost = serial_loop(body, n if n is not None else 1)
        task = _aggregate(op, parts, cost)
        if n is not None:
            task.usage = {k: v * n for k, v in task.usage.items()}
        task.pipe = primary_pipe(task.info.pipes, task.usage)
        return task
    if isinstance(op, scf.IfOp):
        branch_costs = []
        parts: list[BodyTask] = []
        for region in op.regions:
            if not region.blocks:
                continue
            ts = block_tasks(region.block, iv, loop_cost, chip)
            parts.extend(ts)
            if ts:
                branch_costs.append(seq(*[Cost(t.info.latency, t.info.ii) for t in ts]))
        cost = branches(*branch_costs) if branch_costs else Cost(1, 1)
        return _aggregate(op, parts, cost)
    cost = _cost_of_op(op, chip)
    pipes = op_pipes(op)
    info = TaskInfo(op.name, pipes, cost.latency, cost.ii, op_accesses(op, iv, chip), op_paths(op))
    return BodyTask(op, info, primary_pipe(pipes), {p: cost.ii for p in pipes})


def buffer_name(alloc: SSAValue, index: int) -> str:
    hint = getattr(alloc, "name_hint", None)
    return hint if hint else f"buf{index}"


def function_allocs(func: Operation) -> list[SSAValue]:
    return [op.results[0] for op in func.walk() if isinstance(op, memref.AllocOp)]


def loop_buffers(loop: scf.ForOp, tasks: list[BodyTask], allocs: list[SSAValue]) -> list[BufferInfo]:
    """On-chip allocations (defined outside the loop, used only inside it) the loop's
    tasks touch: the candidates for multi-buffering, in allocation order."""
    touched = {a.footprint.root for t in tasks for a in t.info.accesses}
    out = []
    for index, alloc in enumerate(allocs):
        if alloc not in touched or loop.is_ancestor(alloc.owner):  # type: ignore[arg-type]
            continue
        t = alloc.type
        scope = scope_of(t)
        if scope in (None, "gm") or not isinstance(t, MemRefType):
            continue
        if not all(loop.is_ancestor(u) for u in users_through_views(alloc, with_views=True)):
            continue
        shape = tuple(t.get_shape())
        if any(d < 0 for d in shape):
            continue
        nbytes = prod(shape) * element_bytes(t.element_type)
        out.append(BufferInfo(alloc, buffer_name(alloc, index), scope, nbytes, shape))
    return out
