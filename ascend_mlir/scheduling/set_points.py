"""One set point per publishing pipe in the solver's problem (issue 18 item 1), IR-free.

A pipe P that hands results (or freed buffers) to other pipes stands still once per set
point: the set_flag waits for every earlier op of P, later ops of P queue behind it
(`LoopModel.flag_drains`), and the problem reserves one drain per publishing pipe. That
reservation is a count, not a place: with consumers free to start as soon as their own
producer completes, `ascend-insert-sync` cannot gather the sets of P at one point without
delaying a consumer, and the code drains P once per set point (a loop of 4 chains of 8
ops ran at 1224 cycles per iteration against 736 scheduled, ascend950).

`gathered(p, body_tasks, pipes)` gives each such pipe its set point: a task of one
scalar cycle (the scalar unit issues set_flag) after every releasing task x of P (a body
task on P alone that a dependence hands to another pipe) has completed (x -> point,
latency of x), before every consumer of those releases (point -> consumer, latency 0,
the release's distance or buffer). One set after the last releasing op then keeps every
consumer's slot, and the one drain per pipe reserved is the one the code has. That is
|releasing| + |consumers| dependences per pipe, not their product
(`unroll.coalesced` adds the product, for the unrolled body).

A pipe keeps its free-floating sets when a same-pass consumer of its releases leads
(through distance-0 dependences, set points added so far included) to one of its
releasing tasks: its set cannot wait for a task that follows it.
`keeps_points` says whether a schedule of the plain problem already keeps the points.
"""

from __future__ import annotations

from dataclasses import replace

from ascend_mlir import hardware

from .bounds import check_schedule
from .problem import Dep, LoopProblem, Task


def publishing_pipe(p: LoopProblem, d: Dep, body_tasks: int) -> str | None:
    """The pipe whose set_flag releases `d` (None when no flag drains a pipe for it)."""
    if d.src >= body_tasks or d.dst >= body_tasks:
        return None
    src, dst = p.tasks[d.src].pipes, p.tasks[d.dst].pipes
    if len(src) != 1 or src == dst or src[0] in hardware.ORDERED_PIPES:
        return None
    return src[0]


def _reaches_any(succ: list[set[int]], start: int, targets: set[int]) -> bool:
    """Whether a task of `targets` follows `start` through distance-0 dependences."""
    seen, stack = {start}, [start]
    while stack:
        for j in succ[stack.pop()]:
            if j in targets:
                return True
            if j not in seen:
                seen.add(j)
                stack.append(j)
    return False


def gathered(p: LoopProblem, body_tasks: int, pipes: frozenset[str] | None = None) -> LoopProblem:
    """`p` with one set point per publishing pipe (of `pipes`, all when None): a task of
    one scalar cycle (the set_flag, which the scalar unit issues) after every releasing
    task of the pipe has completed, before every consumer of its releases; appended after
    `p`'s tasks. A pipe whose same-pass consumer leads to one of its releasing tasks is
    left as it is (see the module doc)."""
    releasing: dict[str, set[int]] = {}
    released: dict[str, list[Dep]] = {}
    for d in p.deps:
        pipe = publishing_pipe(p, d, body_tasks)
        if pipe is not None and (pipes is None or pipe in pipes):
            releasing.setdefault(pipe, set()).add(d.src)
            released.setdefault(pipe, []).append(d)
    tasks = list(p.tasks)
    succ: list[set[int]] = [set() for _ in p.tasks]
    for d in p.deps:
        if d.buffer is None and d.distance == 0:
            succ[d.src].add(d.dst)
    extra: list[Dep] = []
    for pipe in sorted(releasing):
        sources = releasing[pipe]
        if len(sources) < 2:
            continue
        same_pass = {d.dst for d in released[pipe] if d.buffer is None and d.distance == 0}
        if any(_reaches_any(succ, c, sources) for c in sorted(same_pass)):
            continue
        point = len(tasks)
        tasks.append(Task(f"set:{pipe}", pipe="S", latency=1, ii=1))
        succ.append(set())
        for x in sorted(sources):
            extra.append(Dep(x, point, p.tasks[x].latency))
            succ[x].add(point)
        consumers = {(d.dst, d.distance, d.buffer) for d in released[pipe]}
        for dst, distance, buffer in sorted(consumers, key=lambda c: (c[0], c[1], c[2] or "")):
            extra.append(Dep(point, dst, 0, distance, buffer))
            if buffer is None and distance == 0:
                succ[point].add(dst)
    return replace(p, tasks=tasks, deps=[*p.deps, *extra]) if extra else p


def keeps_points(g: LoopProblem, base_tasks: int, ii: int, start: list[int], versions: dict[str, int]) -> bool:
    """Whether a schedule of the first `base_tasks` tasks of `g` (a `gathered` problem)
    already keeps its set points: each point at its sources' latest completion, every
    dependence and resource of `g` then met."""
    full = list(start[:base_tasks])
    for point in range(base_tasks, len(g.tasks)):
        ready = [full[d.src] + d.latency for d in g.deps if d.dst == point]
        full.append(max(ready, default=0))
    return not check_schedule(g, ii, full, versions)
