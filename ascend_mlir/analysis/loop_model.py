"""From IR to scheduling problems: one `LoopModel` per `scf.for` (innermost first).

A model holds the loop's tasks (hivm ops, nested loops and ifs, in program order), their
dependences, the on-chip buffers that may be multi-buffered, the capacity left for them,
the stage bound and the extra resource conflicts. `problem()` turns it into the solver's
`LoopProblem` (ascend_mlir.scheduling, DESIGN.md section 6).

`loop_problems(module, chip)` is the entry point for benchmarks: every loop of every
function as (name, LoopProblem), inner loops costed by the serial-loop formula (or by
their schedule when the module has already been through ascend-modulo-schedule).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import IntegerAttr, MemRefType, ModuleOp
from xdsl.ir import Block, Operation, SSAValue

if TYPE_CHECKING:
    from ascend_mlir.scheduling import LoopProblem

from ascend_mlir.analysis.accesses import (
    BodyTask,
    LoopCost,
    block_tasks,
    function_allocs,
    loop_bounds,
    loop_buffers,
    mark_iteration_locals,
    trip_count,
)
from ascend_mlir.analysis.dependences import (
    BufferInfo,
    Dependence,
    eligible_buffers,
    loop_dependences,
    publishes,
    resource_conflicts,
)
from ascend_mlir import hardware
from ascend_mlir.analysis.latency_model import Cost, element_bytes, op_pipes, scope_of
from ascend_mlir.analysis.views import enclosing_function, users_through_views
from ascend_mlir.chips import Chip, needs_barrier
from ascend_mlir.dialects import ascend
from ascend_mlir.dialects.tile import NUM_STAGES_ATTR as TILE_NUM_STAGES


def loop_num_stages(loop: scf.ForOp, override: int | None = None) -> int:
    """The bound on buffer versions: the option, else the loop attribute, else 1."""
    if override is not None and override > 0:
        return override
    stages = ascend.num_stages_of(loop)
    if stages is None:
        attr = loop.attributes.get(TILE_NUM_STAGES)
        stages = attr.value.data if isinstance(attr, IntegerAttr) else 1
    return max(1, stages)


def loop_name(loop: scf.ForOp, index: int) -> str:
    """`<function>.<iv name>` (or `.loop<N>` by pre-order position) for reports."""
    parent = enclosing_function(loop)
    fname = parent.sym_name.data if parent is not None else "module"
    hint = loop.body.block.args[0].name_hint
    return f"{fname}.{hint}" if hint else f"{fname}.loop{index}"


@dataclass
class LoopModel:
    loop: scf.ForOp
    name: str
    tasks: list[BodyTask]
    deps: list[Dependence]
    buffers: list[BufferInfo]  # eligible for multi-buffering, aligned sizes
    capacity: dict[str, int]
    num_stages: int
    conflicts: list[tuple[int, int]]
    trip_count: int | None
    stats: dict[str, Any] = field(default_factory=dict)
    # reserve each publishing pipe's flag drain (flag_drains); off only for the pure
    # resource bound the e2e benchmark compares against
    model_flag_drains: bool = True
    # whose same-pipe rule decides which same-pipe dependences publish (None: the default)
    chip: Chip | None = None

    def solver_deps(self) -> list[tuple[int, int, int, int, str | None]]:
        """(src, dst, latency, distance, buffer) with duplicates merged (max latency)."""
        best: dict[tuple[int, int, int, str | None], int] = {}
        for d in self.deps:
            key = (d.src, d.dst, d.distance, d.buffer)
            best[key] = max(best[key], d.latency) if key in best else d.latency  # may be negative
        return [(s, t, lat, dist, buf) for (s, t, dist, buf), lat in sorted(
            best.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2], kv[0][3] or ""))]

    def flag_drains(self) -> dict[str, int]:
        """Per pipe, the cycles it stands still each iteration to publish a flag.

        A set_flag on pipe P runs once every earlier op of P has completed, and later
        ops of P queue behind it (DESIGN.md section 8): each iteration in which P hands
        a result (or a freed buffer) to another pipe, P idles from the end of its last
        producer's ii to that producer's completion. The sync pass sets one flag per
        consumer pipe after the last producer, so the cost is one drain per publishing
        pipe, at best the smallest `latency - ii` among its producers. A dependence on
        one pipe publishes too, by a pipe_barrier, where the chip does not order that pipe
        (dependences.publishes asks chips.needs_barrier: the 910B's V, the DMA pipes);
        one the chip orders (the 950's V) costs no drain. Hardware-ordered pipes (S, M)
        and multi-pipe tasks (nested loops, mmadL1 whose MTE1 feed completes within its
        ii) are left out."""
        pipe_of = {i: t.solver_pipes for i, t in enumerate(self.tasks)}
        drains: dict[str, int] = {}
        for d in self.deps:
            src, dst = pipe_of[d.src], pipe_of[d.dst]
            if len(src) != 1 or src[0] in hardware.ORDERED_PIPES:
                continue
            if src == dst and not publishes(self.chip, src[0], dst[0]):  # the chip orders the pipe
                continue
            if isinstance(self.tasks[d.src].op, scf.ForOp | scf.IfOp) or len(op_pipes(self.tasks[d.src].op)) != 1:
                continue
            info = self.tasks[d.src].info
            bubble = max(0, info.latency - info.ii)
            drains[src[0]] = min(drains.get(src[0], bubble), bubble)
        return {p: b for p, b in sorted(drains.items()) if b > 0}

    def drain_reservations(self, start: Sequence[int]) -> list[ascend.Drain]:
        """The drains of `problem()` with their starts in a schedule of it (the tasks
        after the body's own)."""
        if not self.model_flag_drains:
            return []
        first = len(self.tasks)
        return [ascend.Drain(pipe, start[first + k], cycles)
                for k, (pipe, cycles) in enumerate(self.flag_drains().items())]

    def problem(self) -> LoopProblem:
        """The solver's problem of this loop: built once while what it is built from stays
        the same (the scheduling pass asks for it six times per loop, 0.28 CPU s each on
        chains of 4 x 64 ops, and each new object also lost the problem's cached pairs,
        arcs and conflict lists); a LoopProblem is frozen."""
        key = (self.model_flag_drains, self.num_stages, len(self.tasks), len(self.deps), len(self.buffers),
               tuple(self.capacity.items()), len(self.conflicts), id(self.chip))
        cached = self.__dict__.get("_problem")
        if cached is None or cached[0] != key:
            cached = (key, self._build_problem())
            self.__dict__["_problem"] = cached
        return cached[1]

    def _build_problem(self) -> LoopProblem:
        from ascend_mlir.scheduling import Buffer, Dep, LoopProblem, Task

        tasks = [
            Task(f"{i}:{t.info.name}", pipe=pipe_arg(t.solver_pipes), latency=t.info.latency, ii=t.info.ii)
            for i, t in enumerate(self.tasks)
        ]
        # after the body's tasks (their indices stay those of self.tasks): the flag
        # drains, free-floating reservations of their pipe
        if self.model_flag_drains:
            tasks += [Task(f"drain:{p}", pipe=p, latency=b, ii=b) for p, b in self.flag_drains().items()]
        deps = []
        for s, t, lat, dist, buf in self.solver_deps():
            if buf is not None:
                deps.append(Dep(s, t, latency=lat, buffer=buf))
            else:
                deps.append(Dep(s, t, latency=lat, distance=dist))
        buffers = [Buffer(b.name, scope=b.scope, size=b.bytes) for b in self.buffers]
        return LoopProblem(
            tasks=tasks,
            deps=deps,
            buffers=buffers,
            capacity=dict(self.capacity),
            num_stages=self.num_stages,
            conflicts=list(self.conflicts),
            **_chip_sync(self.chip, tasks),
        )

    def bounds(self):
        """The solver's lower bounds on the II (ResMII per pipe, conflict and RecMII
        bounds, what binds) for this loop's problem."""
        from ascend_mlir.scheduling import compute_mii

        return compute_mii(self.problem())


def pipe_arg(pipes: tuple[str, ...]) -> str | tuple[str, ...]:
    return pipes[0] if len(pipes) == 1 else pipes


def straight_line_problem(block: Block, chip: Chip) -> tuple[list[BodyTask], LoopProblem] | None:
    """The tasks of a function body (its loops and ifs each one task) and the problem of
    one pass over them: their dependences in the block (none carried), the HBM port's
    conflicts, the chip's event ids and unordered pipes. None without a task."""
    from ascend_mlir.scheduling import Dep, LoopProblem, Task

    tasks = block_tasks(block, None, scheduled_loop_cost, chip)
    if not tasks:
        return None
    infos = [t.info for t in tasks]
    latency: dict[tuple[int, int], int] = {}
    for d in loop_dependences(infos, (), 1):
        if d.distance == 0 and d.buffer is None:
            latency[(d.src, d.dst)] = max(latency.get((d.src, d.dst), 0), d.latency)
    problem_tasks = [Task(f"{i}:{t.info.name}", pipe=pipe_arg(t.solver_pipes), latency=t.info.latency, ii=t.info.ii)
                     for i, t in enumerate(tasks)]
    return tasks, LoopProblem(
        tasks=problem_tasks,
        deps=[Dep(s, t, latency=lat) for (s, t), lat in sorted(latency.items())],
        conflicts=resource_conflicts(infos),
        **_chip_sync(chip, problem_tasks),
    )


def _chip_sync(chip: Chip | None, tasks: Sequence[Any]) -> dict[str, Any]:
    """The problem's facts of the chip's sync, which the replay of its code reads: event
    ids per pipe pair, and the pipes of `tasks` on which two dependent ops need a
    pipe_barrier (chips.needs_barrier, the same-pipe rule's one source)."""
    return {
        "events_per_pipe_pair": chip.events_per_pipe_pair if chip is not None else hardware.EVENTS_PER_PIPE_PAIR,
        "barrier_pipes": frozenset(pipe for t in tasks for pipe in t.pipes if needs_barrier(chip, pipe, pipe)),
    }


def _stored(buffer: BufferInfo) -> int:
    """Bytes `buffer` occupies in its scope (fractal padding included), before alignment."""
    count = 1
    for d in buffer.shape:
        count *= d
    return hardware.stored_bytes(buffer.scope, buffer.shape, buffer.bytes // count) if count else buffer.bytes


def _fixed_bytes(func_op: Operation, chip: Chip, exclude: set) -> dict[str, int]:
    """Bytes per scope of the function's allocations other than `exclude` (aligned)."""
    used: dict[str, int] = {}
    for alloc in function_allocs(func_op):
        if alloc in exclude:
            continue
        t = alloc.type
        scope = scope_of(t)
        if scope is None or scope == "gm" or not isinstance(t, MemRefType):
            continue
        shape = t.get_shape()
        if any(d < 0 for d in shape):
            continue
        size = chip.aligned_size(scope, hardware.stored_bytes(scope, shape, element_bytes(t.element_type)))
        size *= ascend.versions_of(alloc.owner)  # type: ignore[arg-type]
        used[scope] = used.get(scope, 0) + size
    return used


def innermost_loop_holding(ops: Sequence[Operation]) -> scf.ForOp | None:
    """The innermost `scf.for` that holds every op of `ops` (None if none does, or no ops)."""
    if not ops:
        return None
    loop = ops[0].parent_op()
    while loop is not None:
        if isinstance(loop, scf.ForOp) and all(loop.is_ancestor(u) for u in ops):
            return loop
        loop = loop.parent_op()
    return None


def buffer_loop(alloc: SSAValue) -> scf.ForOp | None:
    """The innermost `scf.for` that holds every use of a buffer (through views): the loop
    whose iterations a multi-buffered buffer's versions follow (None if no loop holds all)."""
    return innermost_loop_holding(users_through_views(alloc))


# a nested loop's port time is at most the busy time in it of the pipes whose ops may
# use a core's HBM port (hardware.HBM_PORT_PIPES: GM in or out)


def port_time(task: BodyTask) -> int:
    """Cycles `task` may hold the HBM port: an op its ii, a nested loop or if the busy
    time of its DMA pipes over all its iterations (an upper bound)."""
    if not isinstance(task.op, scf.ForOp | scf.IfOp):
        return task.info.ii
    return sum(task.usage.get(p, 0) for p in sorted(hardware.HBM_PORT_PIPES))


def spread_port_conflicts(tasks: Sequence[BodyTask], conflicts: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The shared-port conflicts, less those of a nested loop whose port time and its
    partner's fit within the longer of the two. A conflict keeps two tasks' windows
    apart for their whole ii; a nested loop holds the port only in its DMA ops, spread
    over its iterations (its own schedule keeps them apart), so a partner that fits
    in its gaps overlaps it in the code: the next output tile's loads run during the
    previous tile's last matmuls and its fixpipe (issue 18 item 4; nested gemms ran
    4-13% below the schedule with the conflict)."""
    kept = []
    for i, j in conflicts:
        a, b = tasks[i], tasks[j]
        nested = any(isinstance(t.op, scf.ForOp) for t in (a, b))
        if nested and port_time(a) + port_time(b) <= max(a.info.ii, b.info.ii):
            continue
        kept.append((i, j))
    return kept


def build_loop_model(
    loop: scf.ForOp,
    chip: Chip,
    loop_cost: LoopCost,
    index: int = 0,
    num_stages: int | None = None,
) -> LoopModel:
    iv = loop.body.block.args[0]
    tasks = mark_iteration_locals(block_tasks(loop.body.block, iv, loop_cost, chip), loop)
    func_op = enclosing_function(loop)
    allocs = function_allocs(func_op) if func_op is not None else []
    # a buffer's versions follow the innermost loop that holds all its uses
    candidates = [b for b in loop_buffers(loop, tasks, allocs) if buffer_loop(b.root) is loop]  # type: ignore[arg-type]
    n = trip_count(loop)
    infos = [t.info for t in tasks]
    # distances count iterations: the loop variable advances by the step in each
    deps = loop_dependences(infos, candidates, n, loop_bounds(loop)[2])
    eligible = eligible_buffers(infos, candidates)
    fixed = _fixed_bytes(func_op, chip, {b.root for b in eligible}) if func_op else {}
    capacity = {
        scope: max(0, chip.capacity[scope] - fixed.get(scope, 0))
        for scope in sorted({b.scope for b in eligible})
    }
    buffers = [
        BufferInfo(b.root, b.name, b.scope, chip.aligned_size(b.scope, _stored(b)), b.shape)
        for b in eligible
    ]
    return LoopModel(
        loop=loop,
        name=loop_name(loop, index),
        tasks=tasks,
        deps=deps,
        buffers=buffers,
        capacity=capacity,
        num_stages=loop_num_stages(loop, num_stages),
        conflicts=spread_port_conflicts(tasks, resource_conflicts(infos)),
        trip_count=n,
        chip=chip,
    )


def loops_innermost_first(module: Operation) -> list[tuple[int, scf.ForOp]]:
    """Every scf.for with its pre-order index in its function, children before parents."""
    out: list[tuple[int, scf.ForOp]] = []

    def visit(op: Operation, counter: list[int]) -> None:
        for region in op.regions:
            for block in region.blocks:
                for child in block.ops:
                    if isinstance(child, func.FuncOp):
                        visit(child, [0])
                    elif isinstance(child, scf.ForOp):
                        index = counter[0]
                        counter[0] += 1
                        visit(child, counter)
                        out.append((index, child))
                    else:
                        visit(child, counter)

    visit(module, [0])
    return out


def scheduled_loop_cost(loop: scf.ForOp) -> Cost | None:
    """(latency, ii) of a whole loop that ascend-modulo-schedule already annotated."""
    task = ascend.task_of(loop) if ascend.loop_of(loop) is not None else None
    return None if task is None else Cost(task.latency, task.ii)


def loop_problems(module: ModuleOp, chip: Chip | str | None = None) -> list[tuple[str, Any]]:
    """(name, LoopProblem) for every loop of the module, innermost first. Latencies come
    from `#ascend.task` when present, else from the chip's latency model."""
    from ascend_mlir.chips import load_chip, resolve_chip

    if chip is None:
        chip = resolve_chip(module)
    elif isinstance(chip, str):
        chip = load_chip(chip)
    return [
        (model.name, model.problem())
        for model in (
            build_loop_model(loop, chip, scheduled_loop_cost, index)
            for index, loop in loops_innermost_first(module)
        )
    ]
