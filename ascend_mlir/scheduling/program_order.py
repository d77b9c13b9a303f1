"""The schedule program-order code runs: each pipe takes its tasks in body order, one
version per buffer, and a task starts as soon as its pipes are free, its intra-iteration
producers have completed and no conflicting task holds a shared resource (the core's
GM path); the earliest-starting queue head goes first, as the hardware's per-pipe
queues run (the scalar unit issues ahead of every pipe).

`sequential_schedule` (bounds.py) places the tasks in body order instead, each as early
as the tasks placed before it allow: a store that waits for a long chain then holds the
GM path before the next chain's load, which program-order code issues first (bench
random kernel 4: 3340 cycles estimated by that schedule, 2489 simulated).

A task whose result (or freed buffer) another pipe waits for is followed by its set_flag,
which waits for the task's completion, and the pipe's later tasks queue behind it: such a
task keeps its pipe for its whole latency here (two loads of a 2-chain kernel, each
published to V, run one after the other: bench random kernel 8). The problem's flag-drain
reservations (the tasks after the body's) are this cost counted once per pipe; they are
left out of the schedule and placed after their pipe's last task.

The II here is the distance the next iteration's tasks keep from this one's: every
pipe's first task after its last one (in-order queues), every loop-carried dependence
(one version per buffer) satisfied. Iterations overlap where those allow (a store with
the next iteration's load), so the II may be below the length of one iteration.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import accumulate

from .bounds import dep_distances
from .problem import LoopProblem, LoopResult
from .set_points import publishing_pipe


class _Queues:
    """Per pipe, the tasks in body order and how many have started."""

    def __init__(self, p: LoopProblem, body_tasks: int):
        self.tasks = p.tasks
        self.order: dict[str, list[int]] = {}
        for i, t in enumerate(p.tasks[:body_tasks]):
            for pipe in t.pipes:
                self.order.setdefault(pipe, []).append(i)
        self.head = dict.fromkeys(self.order, 0)
        self.last: dict[str, int] = {}  # the pipe's latest started task

    def heads(self) -> list[int]:
        """The tasks at the head of every queue they are in (a multi-pipe task waits
        for all of them)."""
        out = []
        for pipe, order in self.order.items():
            if self.head[pipe] < len(order):
                i = order[self.head[pipe]]
                if i not in out and all(self._at_head(q, i) for q in self.tasks[i].pipes):
                    out.append(i)
        return out

    def _at_head(self, pipe: str, i: int) -> bool:
        order = self.order[pipe]
        return self.head[pipe] < len(order) and order[self.head[pipe]] == i

    def pop(self, i: int) -> None:
        for pipe in self.tasks[i].pipes:
            self.head[pipe] += 1
            self.last[pipe] = i


def _inputs(p: LoopProblem, n: int, dists: list[int]):
    """Per body task: its intra-iteration producers (task, latency), the cycles it keeps
    its pipes from the next task of its queue, and its resource conflicts
    (other task -> (cycles it keeps the other waiting, cycles the other keeps it))."""
    incoming: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    held = [t.pipe_time for t in p.tasks[:n]]
    for d, dd in zip(p.deps, dists, strict=True):
        if dd == 0 and d.src != d.dst and d.dst < n:
            incoming[d.dst].append((d.src, d.latency))
        if publishing_pipe(p, d, n) is not None:
            held[d.src] = max(held[d.src], p.tasks[d.src].latency)
    conflict: list[dict[int, tuple[int, int]]] = [{} for _ in range(n)]
    for (i, j), (a, b) in p.pair_arcs().items():
        if j < n and not set(p.tasks[i].pipes) & set(p.tasks[j].pipes):
            conflict[i][j] = (a, b)
            conflict[j][i] = (b, a)
    return incoming, held, conflict


def program_order_schedule(p: LoopProblem, body_tasks: int) -> tuple[int, list[int]]:
    """(II, start of every task) of program-order code for `p`, whose first `body_tasks`
    tasks are the loop body's (see the module doc)."""
    n = body_tasks
    dists = dep_distances(p, {b.name: 1 for b in p.buffers})
    incoming, held, conflict = _inputs(p, n, dists)
    start: list[int | None] = [None] * n
    queues = _Queues(p, n)

    def earliest(i: int) -> int | None:
        if any(start[u] is None for u, _ in incoming[i]):
            return None  # its producer has not started (it is behind another queue's head)
        t = max((_at(start, u) + latency for u, latency in incoming[i]), default=0)
        for pipe in p.tasks[i].pipes:
            last = queues.last.get(pipe)
            if last is not None:
                t = max(t, _at(start, last) + held[last])
        for j, (own, theirs) in sorted(conflict[i].items(), key=lambda jc: start[jc[0]] or 0):
            sj = start[j]
            if sj is not None and t + own > sj and t < sj + theirs:
                t = sj + theirs
        return t

    for _ in range(n):
        ready = [(t, i) for i in queues.heads() if (t := earliest(i)) is not None]
        if not ready:
            raise ValueError("program-order schedule: a dependence points backwards in the body")
        t, i = min(ready)
        start[i] = t
        queues.pop(i)
    placed = [_at(start, i) for i in range(n)]
    ii = _program_order_ii(p, placed, dists, queues.order, held)
    for drain in p.tasks[n:]:  # after the last task of its pipe
        on_pipe = [placed[i] + p.tasks[i].ii for i in queues.order.get(drain.pipes[0], [])[-1:]]
        placed.append(max(on_pipe, default=0))
    return ii, placed


def written_in_body_order(p: LoopProblem, body_tasks: int) -> tuple[int, int, list[int], int] | None:
    """Program-order code as ascend-modulo-schedule writes it: (the II its schedule runs at,
    the II written, the starts written, the length); None where `program_order_schedule`
    finds no schedule. The starts are in body order (each at least the one before): the
    code is then the program order estimated, not the list schedule's interleaving of the
    pipes, which the estimate does not model as well. The II written is one past the last
    start: every task in stage 0."""
    try:
        ii, start = program_order_schedule(p, body_tasks)
    except ValueError:
        return None
    length = max(s + t.latency for s, t in zip(start, p.tasks, strict=True))
    written = list(accumulate(start, max))
    return ii, max(ii, written[-1] + 1), written, length


def as_program_order(like: LoopResult, ii: int, start: list[int], length: int, versions: dict[str, int],
                     **stats: object) -> LoopResult:
    """`like` written as program-order code (`written_in_body_order`'s II, starts and
    length; every task in stage 0), `stats` added. The pipelined form's own code facts
    (laid out at another II, one-pass) are not program order's: random kernel 6 on the
    910B carried the stretched form's code_ii."""
    kept = {k: v for k, v in like.stats.items() if k not in ("code_ii", "one_pass")}
    return replace(like, ii=ii, status="program-order", start=start, stage=[0] * len(start), offset=list(start),
                   versions=versions, length=length, stats={**kept, **stats})


def _at(start: list[int | None], i: int) -> int:
    s = start[i]
    assert s is not None
    return s


def _program_order_ii(p: LoopProblem, start: list[int], dists: list[int], order: dict[str, list[int]],
                      held: list[int]) -> int:
    """The least II at which the next iteration, run the same way, keeps every pipe's
    order and every loop-carried dependence."""
    ii = 1
    for tasks in order.values():
        ii = max(ii, start[tasks[-1]] + held[tasks[-1]] - start[tasks[0]])
    for d, dd in zip(p.deps, dists, strict=True):
        if dd > 0 and d.src < len(start) and d.dst < len(start):
            ii = max(ii, -(-(d.latency - (start[d.dst] - start[d.src])) // dd))
    return ii
