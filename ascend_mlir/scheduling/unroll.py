"""Unroll factor U of a loop, IR-free (issue 18 item 2).

A pipe that hands a result to another pipe stands still once per set point to publish
its flag (the drain, `LoopModel.flag_drains`). Unrolled U times, the U copies of a
producer can publish at one point: one drain per U iterations instead of U. Whether that
lowers the cost per iteration is asked of the same solver, one solve per U:

* `unrolled_problem(p, u, body_tasks)` is the loop body unrolled U times as the IR
  unrolling makes it: the first `body_tasks` tasks copied U times (copy c is iteration
  U*g + c of group g), the reservations after them (the flag drains: one set point per
  publishing pipe and unrolled iteration) kept once. A dependence of distance d from
  copy a goes to copy (a + d) mod U, (a + d) // U groups later. Every multi-bufferable
  buffer gets one copy per unrolled iteration (copy c of the body uses its own), each
  with at most `num_stages // U` versions: the versions U needs stay within num_stages;
  capacity is shared by all copies. A buffer's versions are then counted in groups.
* `coalesced(p, u, body_tasks)`: the one set point per publishing pipe and pass that
  the unrolling is for. A consumer of a flag released on pipe P (a dependence from a
  single-pipe task on P to a task on another pipe) waits for the set that stands after
  the last of the pass's releasing P tasks, so it waits for all of them: the same
  dependence (latency of each, same distance) from every other releasing task of P in
  the producer's pass, unless that task itself follows the consumer in the same pass
  (then the set cannot wait for it). `ascend-insert-sync` then finds one point per pipe
  that keeps the consumers' slots, and the one drain per pipe the schedule reserved is
  the one the code has. A pipe whose releasing ops complete when their ii ends (the
  vector pipe of vecadd) has no drain to share: its consumers wait only for their own
  producers (vecadd's U = 2 code then releases each copy's store and next loads after
  that copy's vadd: 1453 -> 1266 cycles).
* `port_order(p, body_tasks)` / `from_retimed`: the consumers one set point releases
  start together; two of them that share a resource besides their pipes (the HBM path
  of GM copies on MTE2 and MTE3) go in pipe order (the simulator's rule: MTE2 first).
  When a set point releases both a next-pass consumer X (a load refilling a buffer this
  pass read) and a same-pass consumer Y on a later pipe (a store of this pass's result),
  Y runs after X of the next pass. That dependence points one pass back; the problem
  is solved with X retimed by one pass (X of pass j + 1 counted in pass j: its
  dependences' distances shifted, the buffers concerned having one version), and the
  schedule shifted back.
* `better(ii_u, u, ii_v, v)`: II/U compared exactly; ties go to the smaller U.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from ascend_mlir import hardware

from .bounds import check_schedule
from .problem import Buffer, Dep, LoopProblem, LoopResult
from .set_points import publishing_pipe

UNROLL_FACTORS = (1, 2, 4)


def copy_name(name: str, copy: int) -> str:
    """The name of copy `copy` of a buffer (copy 0 keeps the body's name)."""
    return name if copy == 0 else f"{name}#{copy}"


def unrolled_problem(p: LoopProblem, u: int, body_tasks: int | None = None,
                     reserved: dict[str, int] | None = None) -> LoopProblem | None:
    """`p` unrolled `u` times (see the module doc), or None when the buffer versions U
    needs do not fit num_stages. `reserved`: bytes per scope the unrolled loop leaves to
    something else (a remainder loop's own buffers)."""
    if u < 1:
        raise ValueError(f"unroll factor must be >= 1, got {u}")
    n = len(p.tasks) if body_tasks is None else body_tasks
    if u == 1:
        return p
    per_copy = p.num_stages // u
    if p.buffers and per_copy < 1:
        return None

    def index(task: int, copy: int) -> int:
        # body tasks copy by copy, then the reservations once
        return copy * n + task if task < n else (u - 1) * n + task

    tasks = [replace(t, name=f"{t.name}#{c}" if c else t.name) for c in range(u) for t in p.tasks[:n]]
    tasks += list(p.tasks[n:])
    deps: list[Dep] = []
    for d in p.deps:
        if d.src >= n or d.dst >= n:
            deps.append(Dep(index(d.src, u - 1), index(d.dst, u - 1), d.latency, d.distance, d.buffer))
            continue
        for a in range(u):
            if d.buffer is not None:
                # the WAR/WAW edge of a multi-buffer: copy a's own buffer, its versions in groups
                deps.append(Dep(index(d.src, a), index(d.dst, a), d.latency, d.distance, copy_name(d.buffer, a)))
            else:
                b = a + d.distance
                deps.append(Dep(index(d.src, a), index(d.dst, b % u), d.latency, b // u))
    buffers = [Buffer(copy_name(b.name, c), b.scope, b.size,
                      min(per_copy, b.max_versions) if b.max_versions is not None else per_copy)
               for c in range(u) for b in p.buffers]
    capacity = dict(p.capacity)
    for scope, used in (reserved or {}).items():
        if scope in capacity:
            capacity[scope] = max(0, capacity[scope] - used)
    pairs = {(index(i, a), index(j, b)) for i, j in p.conflicts for a in range(u) for b in range(u)}
    conflicts = sorted({(min(i, j), max(i, j)) for i, j in pairs if i != j})
    return coalesced(LoopProblem(tasks=tasks, deps=deps, buffers=buffers, capacity=capacity,
                                 num_stages=p.num_stages, conflicts=conflicts,
                                 events_per_pipe_pair=p.events_per_pipe_pair, barrier_pipes=p.barrier_pipes), u, u * n)


def _same_pass_reach(p: LoopProblem, body_tasks: int) -> list[int]:
    """Per task, the bit set of the tasks it precedes through distance-0 dependences
    between body tasks (one or more), kept closed as coalesced adds edges
    (`_add_edge`): one closure instead of a search per candidate dependence (79k
    searches, 36 s CPU on a 128-op loop unrolled twice)."""
    succ: list[set[int]] = [set() for _ in range(len(p.tasks))]
    for d in p.deps:
        if d.buffer is None and d.distance == 0 and d.src < body_tasks and d.dst < body_tasks:
            succ[d.src].add(d.dst)
    order = _topological(succ)
    reach = [0] * len(p.tasks)
    if order is not None:
        for t in reversed(order):
            for j in succ[t]:
                reach[t] |= (1 << j) | reach[j]
        return reach
    for t in range(len(p.tasks)):  # a cycle (of zero latency): one search per task
        stack = list(succ[t])
        while stack:
            j = stack.pop()
            if not reach[t] >> j & 1:
                reach[t] |= 1 << j
                stack.extend(succ[j])
    return reach


def _topological(succ: list[set[int]]) -> list[int] | None:
    """The tasks in an order where every edge goes forward; None on a cycle."""
    indegree = [0] * len(succ)
    for targets in succ:
        for j in targets:
            indegree[j] += 1
    order = [t for t, k in enumerate(indegree) if k == 0]
    for t in order:
        for j in succ[t]:
            indegree[j] -= 1
            if indegree[j] == 0:
                order.append(j)
    return order if len(order) == len(succ) else None


def _add_edge(reach: list[int], src: int, dst: int) -> None:
    """Close `reach` over a new edge src -> dst: every task reaching src (and src)
    now reaches dst and all dst reaches."""
    gained = (1 << dst) | reach[dst]
    bit = 1 << src
    for t, bits in enumerate(reach):
        if t == src or bits & bit:
            reach[t] = bits | gained


def coalesced(p: LoopProblem, u: int, body_tasks: int) -> LoopProblem:
    """`p` (a body unrolled `u` times: its first `body_tasks` tasks, the U copies in one
    pass) with every consumer of a released flag waiting for all releasing tasks
    of the producer's pipe and pass (see the module doc)."""
    if u == 1 or body_tasks == 0:
        return p
    releasing: dict[str, set[int]] = {}
    for d in p.deps:
        pipe = publishing_pipe(p, d, body_tasks)
        if pipe is not None:
            releasing.setdefault(pipe, set()).add(d.src)
    # a pipe whose releasing ops complete when their ii ends stands still for no drain: its
    # set points cost nothing to keep apart, so its consumers need not wait for every copy
    drainless = {pipe for pipe, xs in releasing.items() if all(p.tasks[x].latency <= p.tasks[x].ii for x in xs)}
    reach = _same_pass_reach(p, body_tasks)
    have = {(d.src, d.dst, d.distance, d.buffer) for d in p.deps}
    extra: list[Dep] = []
    for d in p.deps:
        pipe = publishing_pipe(p, d, body_tasks)
        if pipe is None or pipe in drainless:
            continue
        same_pass = d.buffer is None and d.distance == 0
        for x in sorted(releasing[pipe]):
            key = (x, d.dst, d.distance, d.buffer)
            # in the same pass, a consumer that some releasing task waits for (through
            # the dependences so far, those added here included) cannot wait for it
            if key in have or x == d.dst or same_pass and reach[d.dst] >> x & 1:
                continue
            have.add(key)
            extra.append(Dep(x, d.dst, p.tasks[x].latency, d.distance, d.buffer))
            if same_pass:
                _add_edge(reach, x, d.dst)
    if not extra:
        return p
    return replace(p, deps=[*p.deps, *extra])


def _buffer_signatures(p: LoopProblem) -> dict[str, tuple[object, ...]]:
    """Each buffer as the solver knows it: scope, size, version bound and the
    dependences through it."""
    uses: dict[str, list[tuple[int, int, int, int]]] = {}
    for d in p.deps:
        if d.buffer is not None:
            uses.setdefault(d.buffer, []).append((d.src, d.dst, d.latency, d.distance))
    return {b.name: (b.scope, b.size, p.max_versions(b), tuple(sorted(uses.get(b.name, ()))))
            for b in p.buffers}


def structure_key(p: LoopProblem) -> tuple[object, ...]:
    """What the solver sees of `p`, names left out: two problems with equal keys have the
    same schedules (task i of one is task i of the other; a buffer is known by its
    signature). The unroll search's trial of a factor and the loop the IR unrolling then
    holds are equal this way, so the second solve starts from the first's schedule."""
    sig = _buffer_signatures(p)
    deps = sorted({(d.src, d.dst, d.latency, d.distance, sig[d.buffer] if d.buffer is not None else ())
                   for d in p.deps})
    return (tuple((t.pipes, t.latency, t.ii, t.hold) for t in p.tasks), tuple(deps),
            tuple(sorted(sig.values())), tuple(sorted(p.capacity.items())),
            tuple(sorted({(min(i, j), max(i, j)) for i, j in p.conflicts})))


def buffer_renaming(source: LoopProblem, target: LoopProblem) -> dict[str, str]:
    """The name in `target` of each buffer of `source`, matched by signature (two
    problems with equal structure keys; buffers of equal signature in name order)."""
    by_sig: dict[tuple[object, ...], list[str]] = {}
    for name, sig in sorted(_buffer_signatures(target).items()):
        by_sig.setdefault(sig, []).append(name)
    return {name: by_sig[sig].pop(0) for name, sig in sorted(_buffer_signatures(source).items())}


def cut_off(u: int, ii_best: int, u_best: int) -> int:
    """The least II at unroll `u` that does not beat II `ii_best` at `u_best` per original
    iteration (`better` is false from there on)."""
    return -(-u * ii_best // u_best)


def per_iteration(ii: int, u: int) -> Fraction:
    return Fraction(ii, u)


def better(ii_u: int, u: int, ii_best: int, u_best: int) -> bool:
    """Whether II `ii_u` at unroll `u` costs strictly less per original iteration than the
    best so far (ties keep the smaller factor, which the caller tried first)."""
    return per_iteration(ii_u, u) < per_iteration(ii_best, u_best)


def _single_version(p: LoopProblem, buffer: str) -> bool:
    b = next(b for b in p.buffers if b.name == buffer)
    return p.max_versions(b) == 1


def _pass_distance(p: LoopProblem, d: Dep) -> int | None:
    """How many passes later `d`'s consumer runs (None: it depends on a version count)."""
    if d.buffer is None:
        return d.distance
    return 1 + d.distance if _single_version(p, d.buffer) else None


def _released_together(p: LoopProblem, body_tasks: int) -> list[tuple[int, int]]:
    """(X, Y): a next-pass and a same-pass consumer of one publishing pipe's set point
    that conflict, X's pipe first in the pipe order."""
    consumers: dict[str, dict[int, set[int]]] = {}
    for d in p.deps:
        pipe = publishing_pipe(p, d, body_tasks)
        distance = _pass_distance(p, d) if pipe is not None else None
        if pipe is not None and distance in (0, 1):
            consumers.setdefault(pipe, {}).setdefault(distance, set()).add(d.dst)  # type: ignore[arg-type]
    conflicts = {(min(i, j), max(i, j)) for i, j in p.conflicts}

    def first(x: int, y: int) -> bool:
        px, py = p.tasks[x].pipes, p.tasks[y].pipes
        return len(px) == 1 and len(py) == 1 and hardware.PIPES.index(px[0]) < hardware.PIPES.index(py[0])

    return sorted({(x, y) for by_distance in consumers.values() for x in by_distance.get(1, ())
                   for y in by_distance.get(0, ()) if (min(x, y), max(x, y)) in conflicts and first(x, y)})


def port_order(p: LoopProblem, body_tasks: int) -> tuple[LoopProblem, frozenset[int]] | None:
    """`p` with the next-pass consumers that go first retimed by one pass and the
    same-pass consumers after them (see the module doc); None when nothing is released
    together or a retimed dependence would point backwards."""
    pairs = _released_together(p, body_tasks)
    moved = frozenset(x for x, _ in pairs)
    if not moved:
        return None
    deps: list[Dep] = []
    for d in p.deps:
        shift = (d.dst in moved) - (d.src in moved)
        if shift == 0:
            deps.append(d)
            continue
        distance = _pass_distance(p, d)
        if distance is None or distance - shift < 0:
            return None
        deps.append(Dep(d.src, d.dst, d.latency, distance - shift))
    deps += [Dep(x, y, p.tasks[x].ii) for x, y in pairs]
    return replace(p, deps=deps), moved


def from_retimed(p: LoopProblem, result: LoopResult, moved: frozenset[int]) -> LoopResult | None:
    """The schedule of `p` from `result`, a schedule of `port_order(p)` with the tasks
    `moved` retimed (None if it does not satisfy `p`)."""
    ii = result.ii
    start = [s - ii if i in moved else s for i, s in enumerate(result.start)]
    lift = -(min(start) // ii) * ii if min(start) < 0 else 0
    start = [s + lift for s in start]
    if check_schedule(p, ii, start, result.versions):
        return None
    return replace(result, start=start, stage=[s // ii for s in start], offset=[s % ii for s in start],
                   length=max(s + t.latency for s, t in zip(start, p.tasks, strict=True)))
