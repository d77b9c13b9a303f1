"""What the code of a modulo schedule does when it runs (issue 18 item 1), IR-free.

A modulo schedule gives each task a start; the code keeps only its order. Each pipe
issues its ops in the body's start order from an in-order queue, as soon as the pipe,
the op's flags and the resources it shares allow: nothing in the code holds an op back
to its scheduled start. Where two pipes share a resource (`LoopProblem.conflicts`: the
HBM port of GM loads and stores) and both have an op ready, the pipe named first in
`hardware.PIPES` takes it (the simulator's arbitration, which the schedule does not
model). A schedule that leaves a gap on MTE2 for a store therefore does not run as
scheduled: the next load takes the port the moment it can, the stores slip behind it,
and a loop-carried flag set after the last store reaches the next loads later. On a
loop of 4 chains of 8 ops (ascend950) the schedule said 813 cycles an iteration; the
code ran at 911 = 4 loads + 4 stores on the port + the store drain (172) + set and wait.

`realize(p, body_tasks, start, versions, ...)` replays the code of the schedule,
iteration after iteration, under those rules and the sync the code has:

* a dependence from one pipe to another is a set_flag on the producer's pipe and a
  wait_flag on the consumer's: the set runs once every earlier op of its pipe has
  completed (later ops of the pipe queue behind it: the flag drain) and takes one
  cycle, the consumer starts one cycle after the set (its wait); one set follows each
  producer, or, for a pipe with a set point (`set_points.gathered`: a task named
  `set:<pipe>`), one set at the point for all its producers;
* a dependence on one pipe waits for the producer's completion (in-order pipe or
  pipe_barrier);
* a dependence of distance d (plus the versions of its buffer) is on iteration j - d;
  before the first iterations it holds (the flags set before the loop).

It returns the steady-state cycles per iteration and the starts of one steady iteration,
from which the schedule the code really has is written (`as_result`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ascend_mlir import hardware

from ascend_mlir.analysis import flag_sets

from .bounds import check_schedule
from .problem import LoopProblem, LoopResult

# the cube core's own pipes (hardware.CUBE_ONLY_PIPES): a loop with a task on one is not replayed (the replay
# times gemm's K loop at 2642 cycles an iteration where the simulator runs 1792: the
# cube's MTE1 feed and L0C hand-offs are not modelled), it keeps its schedule
# iterations replayed: enough for the stages and buffer versions of a loop to reach
# their steady state; the period is measured over the last half
MIN_ITERATIONS = 8
# trips `loop_cycles` replays one by one; beyond them it extrapolates the steady state
MAX_REPLAYED_TRIPS = 64


@dataclass(frozen=True)
class Realized:
    """The replayed code: cycles per iteration in the steady state (`ii`, rounded up)
    and the starts of the body's tasks in one steady iteration, the earliest at its
    offset within the II (`start`)."""

    ii: int
    start: list[int]


@dataclass
class _Item:
    """One entry of a pipe's queue: a body task or a set_flag."""

    task: int | None  # body task index; None for a set
    pipes: tuple[str, ...]
    ii: int
    latency: int
    # cycles after its start at which a set_flag behind it may run: the latest of its
    # releases to other pipes (an mmadL1's L1 operands are read by the MTE1 feed, long
    # before the cube completes), its latency when it releases nothing
    released: int = 0


def kernel_shift(p: LoopProblem, body_tasks: int, ii: int, start: list[int]) -> list[int]:
    """Per body task, how many iterations back the kernel's copy of it runs: its stage
    when the loop is emitted stage-skewed (pipeline_loops: some pipe has tasks of two
    stages), else 0 (the body in start order)."""
    stage = [start[i] // ii for i in range(body_tasks)]
    seen: dict[str, int] = {}
    for i in range(body_tasks):
        for pipe in p.tasks[i].pipes:
            if seen.setdefault(pipe, stage[i]) != stage[i]:
                return stage
    return [0] * body_tasks


def _queues(p: LoopProblem, body_tasks: int, ii: int, start: list[int],
            versions: dict[str, int], gather: bool = True) -> tuple[list[_Item], dict[int, int], dict[int, int]]:
    """The body in program order (start order) with its sets where `flag_sets.set_points`
    puts them (after the op of their point; one per pipe and point; with `gather` false,
    each after its producer, as insert-sync places them in a loop kept in program order),
    per releasing task the item of its set, and per body task its item."""
    shift = kernel_shift(p, body_tasks, ii, start)
    at = [start[i] - shift[i] * ii for i in range(body_tasks)]
    order = sorted(range(body_tasks), key=lambda i: (at[i], i))
    pos = {i: n for n, i in enumerate(order)}
    timed = [flag_sets.Item(frozenset(p.tasks[i].pipes), at[i], p.tasks[i].latency, p.tasks[i].ii) for i in order]
    releases, sources = [], []
    for d in p.deps:
        if d.src >= body_tasks or d.dst >= body_tasks:
            continue
        src, dst = p.tasks[d.src].pipes, p.tasks[d.dst].pipes
        if src == dst or len(src) != 1:
            continue
        dist = d.distance + (versions.get(d.buffer, 1) if d.buffer is not None else 0) + shift[d.dst] - shift[d.src]
        releases.append(flag_sets.Release(pos[d.src], pos[d.dst], src[0], dst[0], max(0, dist)))
        sources.append(d.src)
    points = flag_sets.set_points(timed, releases, ii) if gather else [r.src for r in releases]
    after: dict[int, list[str]] = {}
    for r, point in zip(releases, points, strict=True):
        if r.set_pipe not in after.setdefault(point, []):
            after[point].append(r.set_pipe)
    items: list[_Item] = []
    item_of: dict[int, int] = {}
    set_at: dict[tuple[int, str], int] = {}
    released: dict[int, int] = {}
    for d in p.deps:
        if d.src < body_tasks and d.dst < body_tasks and p.tasks[d.src].pipes != p.tasks[d.dst].pipes:
            released[d.src] = max(released.get(d.src, 0), d.latency)
    for n, i in enumerate(order):
        t = p.tasks[i]
        item_of[i] = len(items)
        items.append(_Item(i, t.pipes, t.ii, t.latency, released.get(i, t.latency)))
        for pipe in after.get(n, ()):
            set_at[(n, pipe)] = len(items)
            items.append(_Item(None, (pipe,), 1, 1, 1))
    set_item = {}
    for src, r, point in zip(sources, releases, points, strict=True):
        set_item.setdefault(src, set_at[(point, r.set_pipe)])
    return items, set_item, item_of


class _Replay:
    """The event loop of the replay: per-pipe queues over `iterations` copies of the body."""

    def __init__(self, p: LoopProblem, body_tasks: int, ii: int, start: list[int], queues: tuple[list[_Item], dict[int, int], dict[int, int]],
                 versions: dict[str, int], iterations: int):
        items, set_item, pos = queues
        shift = kernel_shift(p, body_tasks, ii, start)
        self.items, self.n = items, len(items)
        self.iterations = iterations
        # per item: (item it waits for, cycles after that item's start, iteration distance):
        # the dependence's latency on one pipe (the pipe's order or a barrier), the set's
        # cycle and the wait's on two
        self.waits: list[list[tuple[int, int, int]]] = [[] for _ in items]
        for d in p.deps:
            if d.src >= body_tasks or d.dst >= body_tasks:
                continue
            dist = d.distance + (versions.get(d.buffer, 1) if d.buffer is not None else 0) + shift[d.dst] - shift[d.src]
            if p.tasks[d.src].pipes == p.tasks[d.dst].pipes or d.src not in set_item:
                self.waits[pos[d.dst]].append((pos[d.src], d.latency, max(0, dist)))
            else:
                self.waits[pos[d.dst]].append((set_item[d.src], 2, max(0, dist)))
        self.pipes = sorted({pp for item in items for pp in item.pipes}, key=hardware.PIPES.index)
        self.queue = {pp: [n for n, item in enumerate(items) if pp in item.pipes] for pp in self.pipes}
        self.conflicts: list[set[int]] = [set() for _ in items]
        for a, b in p.conflicts:
            if a < body_tasks and b < body_tasks:
                self.conflicts[pos[a]].add(pos[b])
                self.conflicts[pos[b]].add(pos[a])
        self.started: dict[tuple[int, int], int] = {}
        self.head = dict.fromkeys(self.pipes, 0)  # per pipe: index into its queue, over iterations
        self.pipe_free = dict.fromkeys(self.pipes, 0)
        self.inflight: dict[str, list[int]] = {pp: [] for pp in self.pipes}  # completion times
        self.port_busy: dict[int, int] = {}  # item -> cycle its shared resource is free again

    def _head(self, pipe: str) -> tuple[int, int] | None:
        k = self.head[pipe]
        q = self.queue[pipe]
        if not q or k >= len(q) * self.iterations:
            return None
        return k // len(q), q[k % len(q)]

    def _ready(self, it: int, n: int) -> int | None:
        """The earliest cycle item n of iteration `it` may start at (None: not yet known)."""
        item = self.items[n]
        at = max(self.pipe_free[pp] for pp in item.pipes)
        for pp in item.pipes:
            if self._head(pp) != (it, n):
                return None
        if item.task is None:  # a set: every earlier op of its pipe completed
            at = max([at, *self.inflight[item.pipes[0]]])
        for src, after, dist in self.waits[n]:
            j = it - dist
            if j < 0:
                continue
            s = self.started.get((j, src))
            if s is None:
                return None
            at = max(at, s + after)
        return at

    def _port_free(self, n: int, now: int) -> int:
        return max([now, *(self.port_busy.get(m, 0) for m in self.conflicts[n])])

    def run(self) -> dict[tuple[int, int], int]:
        now, total = 0, self.n * self.iterations
        while len(self.started) < total:
            progressed, next_at = False, None
            for pp in self.pipes:  # hardware.PIPES order: the first pipe takes a shared resource
                head = self._head(pp)
                if head is None or head in self.started:
                    continue
                it, n = head
                at = self._ready(it, n)
                if at is None:
                    continue
                at = self._port_free(n, at)
                if at > now:
                    next_at = at if next_at is None else min(next_at, at)
                    continue
                self._start(it, n, now)
                progressed = True
            if progressed:
                continue
            if next_at is None:
                raise ValueError("the replayed code waits for nothing that comes (a dependence "
                                 "on a later op of the same iteration)")
            now = next_at
        return self.started

    def _start(self, it: int, n: int, now: int) -> None:
        item = self.items[n]
        self.started[(it, n)] = now
        for pp in item.pipes:
            self.head[pp] += 1
            self.pipe_free[pp] = now + item.ii
            done = [c for c in self.inflight[pp] if c > now]
            done.append(now + item.released)
            self.inflight[pp] = done
        if self.conflicts[n]:
            self.port_busy[n] = now + item.ii


def realize(p: LoopProblem, body_tasks: int, ii: int, start: list[int], versions: dict[str, int],
            iterations: int | None = None) -> Realized:
    """The code of the schedule `start` (at `ii`) of `p` (its first `body_tasks` tasks are ops;
    set points after them place the sets, drain reservations are not code) replayed
    (module doc): cycles per iteration in the steady state and one steady iteration's
    starts."""
    queues = _queues(p, body_tasks, ii, start, versions)
    items = queues[0]
    stages = max(start[:body_tasks], default=0) // ii + 1
    deepest = max([1, *versions.values()]) + max((d.distance for d in p.deps), default=0)
    n_it = iterations or max(MIN_ITERATIONS, 2 * (deepest + 1), 2 * stages + 4)
    started = _Replay(p, body_tasks, ii, start, queues, versions, n_it).run()
    body = [n for n, item in enumerate(items) if item.task is not None]
    half = n_it // 2
    last = n_it - 1
    span = max(started[(last, n)] - started[(half, n)] for n in body)
    period = -(-span // (last - half))
    first = min(started[(half, n)] for n in body)
    base = first - first % period if period else first
    out = [0] * body_tasks
    for n in body:
        out[items[n].task] = started[(half, n)] - base  # type: ignore[index]
    return Realized(period, out)


def loop_cycles(p: LoopProblem, body_tasks: int, ii: int, start: list[int], versions: dict[str, int],
                trips: int, gather: bool = True) -> int:
    """Cycles the code of the schedule `start` runs `trips` iterations in (module doc):
    from the first op's issue to the last op's completion, the fill and drain of a
    pipelined loop included (not the flags primed before the loop and drained after it).
    `gather`: see `_queues`. For a loop whose every pipe keeps its tasks in one stage
    (`kernel_shift` all 0): a stage-skewed loop's prologue and epilogue are other code."""
    queues = _queues(p, body_tasks, ii, start, versions, gather)
    items = queues[0]

    def replayed(iterations: int) -> int:
        started = _Replay(p, body_tasks, ii, start, queues, versions, iterations).run()
        return max((at + items[n].latency for (_, n), at in started.items()), default=0)

    if trips <= MAX_REPLAYED_TRIPS:
        return replayed(max(trips, 1))
    # a long loop (2**40 trips in test_dsl_errors) is not replayed trip by trip: its
    # steady state, measured over the second half of the replayed trips, repeats
    half = MAX_REPLAYED_TRIPS // 2
    whole = replayed(MAX_REPLAYED_TRIPS)
    period = -(-(whole - replayed(half)) // (MAX_REPLAYED_TRIPS - half))
    return whole + (trips - MAX_REPLAYED_TRIPS) * period


def replays(p: LoopProblem, body_tasks: int) -> bool:
    """Whether `realize` models the code of this loop: a loop of the vector core."""
    return not any(hardware.CUBE_ONLY_PIPES & set(t.pipes) for t in p.tasks[:body_tasks])


def _body(p: LoopProblem, body_tasks: int) -> LoopProblem:
    """`p` without the tasks after the body (drain reservations, set points), which are
    no code."""
    return replace(p, tasks=list(p.tasks[:body_tasks]),
                   deps=[d for d in p.deps if d.src < body_tasks and d.dst < body_tasks],
                   conflicts=[c for c in p.conflicts if max(c) < body_tasks])


def _in_program_order(p: LoopProblem, body_tasks: int, result: LoopResult, run: Realized) -> list[int]:
    """The code's starts, each moved up (never down) until the body's order is the
    program order the pass emits (start order, ties kept by one cycle) and no op starts
    before its pipe is free or before a same-pass producer's latency passed."""
    order = sorted(range(body_tasks), key=lambda i: (result.start[i], i))
    into: dict[int, list[tuple[int, int]]] = {}
    for d in p.deps:
        if d.src < body_tasks and d.dst < body_tasks and d.distance == 0 and d.buffer is None:
            into.setdefault(d.dst, []).append((d.src, d.latency))
    start = list(run.start)
    free: dict[str, int] = {}
    prev = None
    for i in order:
        at = start[i]
        if prev is not None:
            at = max(at, start[prev] + (0 if result.start[i] == result.start[prev] else 1))
        t = p.tasks[i]
        at = max([at, *(free.get(pp, at) for pp in t.pipes), *(start[s] + lat for s, lat in into.get(i, ()))])
        start[i] = at
        for pp in t.pipes:
            free[pp] = at + t.pipe_time
        prev = i
    return start


def code_schedule(p: LoopProblem, body_tasks: int, result: LoopResult, run: Realized) -> LoopResult | None:
    """`result` with the II its code runs at (`run`) and starts that give the same code:
    the body in the same order, every pipe's tasks in one stage as before (a loop that
    is not stage-skewed; the first stage boundary that splits no pipe's tasks), a valid
    schedule of the body at that II. None when no such starts are found."""
    ii = run.ii
    if any(kernel_shift(p, body_tasks, result.ii, result.start)):
        return None
    start = _in_program_order(p, body_tasks, result, run)
    body = _body(p, body_tasks)
    for boundary in sorted(set(start)):
        shifted = [s - boundary + ii for s in start]
        if min(shifted) < 0 or any(kernel_shift(p, body_tasks, ii, shifted)):
            continue
        if check_schedule(body, ii, shifted, result.versions):
            return None
        full = shifted + list(result.start[body_tasks:])
        return replace(result, ii=ii, start=full, stage=[s // ii for s in full], offset=[s % ii for s in full],
                       length=max((s + t.latency for s, t in zip(shifted, p.tasks, strict=False)), default=0))
    return None
