"""Iterative modulo scheduling (B. R. Rau, MICRO-27, 1994) for a fixed II.

Used for the initial upper bound on II and as the fallback when the solver's
budget runs out.  Resources are the pairwise exclusions of the problem (same
pipe or explicit conflict); a task occupies the arc [r, r + ii) of the modulo
circle of length II (its `pipe_time` against tasks of its own pipe, its `ii`
against those it shares only a conflicting resource with).
"""

from __future__ import annotations

import heapq

import numpy as np

from .bounds import arcs_disjoint, arcs_disjoint_each, check_schedule, compact, dep_distances
from .problem import LoopProblem

# from this many conflicting tasks free_slot sweeps them with numpy (the same answer;
# below it, the arrays cost more than the loop: 24 against 12 us at 64, 30 against
# 34 at 128, 32 against 117 at 256 conflicts)
VECTOR_CONFLICTS = 128


def fit_versions(p: LoopProblem) -> dict[str, int]:
    """Most versions that fit the capacity, shrinking the biggest buffers first."""
    versions = {b.name: p.max_versions(b) for b in p.buffers}
    by_scope: dict[str, list] = {}
    for b in p.buffers:
        by_scope.setdefault(b.scope, []).append(b)
    for scope, bufs in by_scope.items():
        cap = p.capacity.get(scope)
        if cap is None:
            continue
        while sum(versions[b.name] * b.size for b in bufs) > cap:
            shrinkable = [b for b in bufs if versions[b.name] > 1]
            if not shrinkable:
                break  # caller has checked that one version of each fits
            big = max(shrinkable, key=lambda b: (versions[b.name] * b.size, b.name))
            versions[big.name] -= 1
    return versions


def minimal_versions(p: LoopProblem, ii: int, start: list[int], versions: dict[str, int]) -> dict[str, int]:
    """Fewest versions of each buffer that the given schedule still satisfies."""
    need = {b.name: 1 for b in p.buffers}
    for d in p.deps:
        if d.buffer is None:
            continue
        slack = start[d.dst] - start[d.src]
        # slack >= lat - ii*(distance + v)  <=>  v >= ceil((lat - slack)/ii) - distance
        v = -(-(d.latency - slack) // ii) - d.distance
        need[d.buffer] = max(need[d.buffer], v)
    for name, v in need.items():
        assert v <= versions[name], "schedule violates its own buffer dependences"
    return need


def _weighted_edges(
    p: LoopProblem, ii: int, versions: dict[str, int]
) -> tuple[list[list[tuple[int, int]]], list[list[tuple[int, int]]]]:
    """Successor and predecessor lists weighted by latency - II * distance."""
    n = len(p.tasks)
    succ: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    pred: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for d, dd in zip(p.deps, dep_distances(p, versions), strict=False):
        w = d.latency - ii * dd
        succ[d.src].append((d.dst, w))
        pred[d.dst].append((d.src, w))
    return succ, pred


def _conflict_lists(p: LoopProblem) -> list[list[tuple[int, int, int]]]:
    """Per task i: (j, cycles i keeps j waiting, cycles j keeps i waiting) for every
    task j it may not overlap (LoopProblem.pair_arcs). Built once per problem and its
    arcs (every IMS attempt of a search asks again: 64 times, 0.37 CPU s, on chains of
    8 x 16 ops); read only."""
    arcs = p.pair_arcs()
    cached = p.__dict__.get("_conflict_lists")
    if cached is not None and cached[0] is arcs:
        return cached[1]
    conflict: list[list[tuple[int, int, int]]] = [[] for _ in range(len(p.tasks))]
    for (i, j), (a, b) in arcs.items():
        conflict[i].append((j, a, b))
        conflict[j].append((i, b, a))
    p.__dict__["_conflict_lists"] = (arcs, conflict)
    return conflict


def _heights(succ: list[list[tuple[int, int]]]) -> list[int] | None:
    """Height-based priority: longest path to any sink in lat - II*dist; None on a
    positive cycle (II below RecMII for these versions)."""
    n = len(succ)
    height = [0] * n
    for _ in range(n + 1):
        changed = False
        for u in range(n):
            for v, w in succ[u]:
                if height[v] + w > height[u]:
                    height[u] = height[v] + w
                    changed = True
        if not changed:
            return height
    return None


class _Occupancy:
    """The modulo reservation table of a problem's pipes as bitmasks of II bits (bit c:
    cycle c of the window held), one per pipe for the tasks' `pipe_time` arcs and one
    per pipe for their `ii` arcs (what a task that shares only a conflicting resource
    with them, the HBM port, may not overlap). First-fit free_slot then asks a few big
    integer operations where the sweep sorted every conflicting arc (best fit: the runs
    of free starts read off the mask): chains of 8 x 16 ops made 175k placements of about
    90 conflicts each, most of the loop's compile.

    Exact where it is used: a task's conflicts are every other task of its pipes
    (`LoopProblem.resource_pairs`) plus, for `port[i]`, the tasks of those other pipes
    that share the port (all of them, and nothing else: checked when built; None
    otherwise, and free_slot sweeps as before)."""

    def __init__(self, p: LoopProblem, ii: int, conflict: list[list[tuple[int, int, int]]]) -> None:
        self.ii, self.full = ii, (1 << ii) - 1
        self.pipes = [t.pipes for t in p.tasks]
        self.pipe_run = [(1 << min(t.pipe_time, ii)) - 1 for t in p.tasks]
        self.port_run = [(1 << min(t.ii, ii)) - 1 for t in p.tasks]
        self.pipe_len = [t.pipe_time for t in p.tasks]
        self.port_len = [t.ii for t in p.tasks]
        names = sorted({pp for t in p.tasks for pp in t.pipes})
        self.held = dict.fromkeys(names, 0)   # pipe_time arcs
        self.issued = dict.fromkeys(names, 0)  # ii arcs
        on_pipe: dict[str, set[int]] = {pp: set() for pp in names}
        for i, t in enumerate(p.tasks):
            for pp in t.pipes:
                on_pipe[pp].add(i)
        # per task, the tasks of its pipes and its conflicts on no pipe of its own
        mine = [set().union(*(on_pipe[pp] for pp in t.pipes)) for t in p.tasks]
        others = [{j for j, _, _ in conflict[i] if j not in mine[i]} for i in range(len(p.tasks))]
        # the tasks that conflict with one of another pipe: they share a port (the HBM
        # port) with it, and only their ii arcs are the port's. A flag drain holds its pipe
        # (MTE3) but no port: counted as the port's, it left every load and store of a
        # ring of 248 ops to the sweep, a third of its compile
        self.shares_port = [bool(o) for o in others]
        on_port = {pp: {i for i in on_pipe[pp] if self.shares_port[i]} for pp in names}
        self.port: list[tuple[str, ...] | None] = []
        for i, t in enumerate(p.tasks):
            pipes = tuple(sorted({pp for j in others[i] for pp in p.tasks[j].pipes} - set(t.pipes)))
            covered = set().union(*(on_port[pp] for pp in pipes)) - mine[i] if pipes else set()
            self.port.append(pipes if covered == others[i] else None)

    def _cells(self, run: int, at: int) -> int:
        r = at % self.ii
        return ((run << r) | (run >> (self.ii - r))) & self.full

    def add(self, j: int, at: int) -> None:
        held, issued = self._cells(self.pipe_run[j], at), self._cells(self.port_run[j], at)
        for pp in self.pipes[j]:
            self.held[pp] |= held
            if self.shares_port[j]:
                self.issued[pp] |= issued

    def remove(self, j: int, at: int) -> None:
        held, issued = self._cells(self.pipe_run[j], at), self._cells(self.port_run[j], at)
        for pp in self.pipes[j]:
            self.held[pp] &= ~held
            if self.shares_port[j]:
                self.issued[pp] &= ~issued

    def _blocked(self, mask: int, e: int, length: int) -> int:
        """Offsets x in [0, II) from cycle e whose arc [e + x, e + x + length) meets `mask`."""
        ii = self.ii
        rotated = ((mask >> e) | (mask << (ii - e))) & self.full
        acc, span = rotated | (rotated << ii), 1
        while span < length:
            step = min(span, length - span)
            acc |= acc >> step
            span += step
        return acc & self.full

    def free_slot(self, op: int, estart: int, best_fit: bool) -> int | None:
        """`_Placement.free_slot` of `op` (port[op] not None): the first free start from
        estart, or (best fit) the start of the shortest run of free starts, the earliest
        among equals."""
        free = self._free(op, estart)
        if not best_fit or free == self.full:
            return None if not free else estart + (free & -free).bit_length() - 1
        best: tuple[int, int] | None = None
        while free:
            first = (free & -free).bit_length() - 1
            above = free >> first
            length = (~above & (above + 1)).bit_length() - 1
            if best is None or length < best[0]:
                best = (length, first)
            free &= ~(((1 << length) - 1) << first)
        return None if best is None else estart + best[1]

    def _free(self, op: int, estart: int) -> int:
        """The offsets x in [0, II) at which `op` may start (estart + x), as a mask."""
        e = estart % self.ii
        held = 0
        for pp in self.pipes[op]:
            held |= self.held[pp]
        blocked = self._blocked(held, e, self.pipe_len[op]) if held else 0
        issued = 0
        for pp in self.port[op]:  # type: ignore[union-attr]
            issued |= self.issued[pp]
        if issued:
            blocked |= self._blocked(issued, e, self.port_len[op])
        return ~blocked & self.full


class _Placement:
    """The mutable state of one iterative-modulo-scheduling run."""

    def __init__(self, p: LoopProblem, ii: int, succ, pred, conflict) -> None:
        n = len(p.tasks)
        self.ii = ii
        self.succ, self.pred, self.conflict = succ, pred, conflict
        # the edges to other tasks (a self-loop neither delays nor evicts its task)
        self.succ_other = [[(v, w) for v, w in edges if v != u] for u, edges in enumerate(succ)]
        self.pred_other = [[(v, w) for v, w in edges if v != u] for u, edges in enumerate(pred)]
        self.start: list[int | None] = [None] * n
        self.last_time: list[int | None] = [None] * n
        self.unscheduled = set(range(n))
        self.best_fit = False
        # the unscheduled tasks by priority (IMS's next task: the highest, then the
        # least index); entries of tasks placed since are skipped when they come up
        self.priority: list[int] | None = None
        self.queue: list[tuple[int, int]] = []
        # the starts again as arrays, and per task its conflicts as arrays, for the
        # vectorised free_slot of a task with many (a loop of 256 vector ops: 31k
        # placements against ~250 conflicts each took 5 of its 14 CPU s)
        self.self_loops: list[bool] | None = None
        self.placed = np.zeros(n, dtype=bool)
        self.start_at = np.zeros(n, dtype=np.int64)
        self.conflict_at = [None if len(c) < VECTOR_CONFLICTS else
                            tuple(np.array(col, dtype=np.int64) for col in zip(*c)) for c in conflict]
        # the pipes' reservation table (`occupy`): free_slot asks it instead of sweeping
        self.occupancy: _Occupancy | None = None

    def occupy(self, p: LoopProblem) -> None:
        """Keep the reservation table of `p`'s pipes from here on (nothing placed yet)."""
        self.occupancy = _Occupancy(p, self.ii, self.conflict)

    def prioritise(self, height: list[int]) -> None:
        self.priority = height
        self.queue = [(-height[i], i) for i in sorted(self.unscheduled)]
        heapq.heapify(self.queue)

    def next_task(self) -> int:
        """The unscheduled task of highest priority (least index among equals): the
        task `max(unscheduled, key=(height, -index))` names, in O(log n)."""
        while True:
            _, op = heapq.heappop(self.queue)
            if op in self.unscheduled:
                return op

    def put(self, op: int, at: int) -> None:
        if self.occupancy is not None:
            self.occupancy.add(op, at)
        self.start[op] = at
        self.placed[op] = True
        self.start_at[op] = at

    def unschedule(self, j: int) -> None:
        if self.occupancy is not None and self.start[j] is not None:
            self.occupancy.remove(j, self.start[j])  # type: ignore[arg-type]
        self.start[j] = None
        self.placed[j] = False
        if j not in self.unscheduled:
            self.unscheduled.add(j)
            if self.priority is not None:
                heapq.heappush(self.queue, (-self.priority[j], j))

    def earliest_start(self, op: int) -> int:
        estart, start = 0, self.start
        for u, w in self.pred_other[op]:
            su = start[u]
            if su is not None and su + w > estart:
                estart = su + w
        return estart

    def free_slot(self, op: int, estart: int) -> int | None:
        """A time in [estart, estart + II) whose arc misses every placed conflicting
        arc: the first (`best_fit` False) or the start of the free run that leaves
        the smallest hole (`best_fit`, then the earliest), which keeps a nearly
        saturated pipe from fragmenting into holes no remaining task fits.

        One sweep over the forbidden offsets (measured from estart): the arc of
        length L at offset x meets the arc [a, a + Lj) iff x lies in
        [a - L + 1, a + Lj - 1] modulo II; O(C log C) for C placed conflicting tasks.
        """
        if self.occupancy is not None and self.occupancy.port[op] is not None:
            return self.occupancy.free_slot(op, estart, self.best_fit)
        if self.conflict_at[op] is not None:
            return self._free_slot_vectorised(op, estart)
        ii, start = self.ii, self.start
        # each forbidden interval [lo, hi] as the one int lo * width + hi, so that the
        # sort compares ints, not tuples (the same order: 0 <= hi < width); the wide
        # loops' placements spend their time here
        width = 2 * ii
        blocked: list[int] = []
        add = blocked.append
        for j, length, other in self.conflict[op]:
            sj = start[j]
            if sj is None:
                continue
            a = (sj - estart) % ii
            lo, hi = a - length + 1, a + other - 1
            # 0 <= a < II and 1 <= lengths <= II: -II < lo < II and 0 <= hi < 2 II, so
            # the interval clipped to [0, II), its copy wrapped from above when hi
            # passes II, its copy wrapped from below when lo is negative
            if hi >= ii:
                add(hi - ii)  # [0, hi - ii]
                hi = ii - 1
            if lo < 0:
                add((lo + ii) * width + ii - 1)
                lo = 0
            add(lo * width + hi)
        blocked.sort()
        return self._slot_in(blocked, estart)

    def _slot_in(self, blocked: list[int], estart: int) -> int | None:
        """The slot free_slot chooses between the sorted forbidden intervals `blocked`
        (each coded lo * 2 II + hi)."""
        ii, width = self.ii, 2 * self.ii
        runs: list[tuple[int, int]] = []  # free offsets [x, y]
        x = 0
        for code in blocked:
            lo, hi = divmod(code, width)
            if lo > x:
                runs.append((x, lo - 1))
                if not self.best_fit:
                    break
            if hi >= x:
                x = hi + 1
        if x < ii and (self.best_fit or not runs):
            runs.append((x, ii - 1))
        if not runs:
            return None
        if not self.best_fit or not blocked:
            return estart + runs[0][0]
        return estart + min(runs, key=lambda r: (r[1] - r[0], r[0]))[0]

    def _free_slot_vectorised(self, op: int, estart: int) -> int | None:
        """free_slot's sweep over the arrays: the same intervals, codes and runs."""
        ii, width = self.ii, 2 * self.ii
        js, lengths, others = self.conflict_at[op]  # type: ignore[misc]
        mask = self.placed[js]
        a = (self.start_at[js[mask]] - estart) % ii
        lo, hi = a - lengths[mask] + 1, a + others[mask] - 1
        over, under = hi >= ii, lo < 0
        blocked = np.sort(np.concatenate((
            hi[over] - ii,
            (lo[under] + ii) * width + ii - 1,
            np.maximum(lo, 0) * width + np.minimum(hi, ii - 1))))
        if not len(blocked):
            return estart
        starts, ends = np.divmod(blocked, width)
        # the sweep's x before each interval: past every earlier one (x starts at 0)
        reach = np.maximum.accumulate(ends + 1)
        before = np.concatenate(([0], reach[:-1]))
        gaps = np.nonzero(starts > before)[0]
        end = int(reach[-1])
        if not self.best_fit:
            if len(gaps):
                return estart + int(before[gaps[0]])
            return estart + end if end < ii else None
        runs = [(int(before[g]), int(starts[g]) - 1) for g in gaps]
        if end < ii:
            runs.append((end, ii - 1))
        if not runs:
            return None
        return estart + min(runs, key=lambda r: (r[1] - r[0], r[0]))[0]

    def force_slot(self, op: int, estart: int) -> int:
        """No free slot: take estart (or one past the last try) and evict the
        conflicting tasks that overlap it."""
        ii = self.ii
        last = self.last_time[op]
        chosen = estart if last is None or estart > last else last + 1
        r = chosen % ii
        if self.conflict_at[op] is not None:
            self._evict_vectorised(op, r)
            return chosen
        for j, length, other in self.conflict[op]:
            sj = self.start[j]
            if sj is not None and not arcs_disjoint(r, length, sj % ii, other, ii):
                self.unschedule(j)
        return chosen

    def _evict_vectorised(self, op: int, r: int) -> None:
        """force_slot's evictions over the arrays (`arcs_disjoint_each` of the placed
        conflicts against the arc at offset `r`): a 256-op loop's forced placements
        against ~250 conflicts each took a tenth of its compile in the plain loop."""
        ii = self.ii
        js, lengths, others = self.conflict_at[op]  # type: ignore[misc]
        placed = self.placed[js]
        apart = arcs_disjoint_each(r, lengths, self.start_at[js] % ii, others, ii)
        for j in js[placed & ~apart].tolist():
            self.unschedule(j)

    def place(self, op: int, chosen: int) -> None:
        """Put `op` at `chosen` and evict the neighbours whose dependence it breaks."""
        self.put(op, chosen)
        self.last_time[op] = chosen
        self.unscheduled.discard(op)
        start = self.start
        # evicting twice is evicting once, and the queue orders by (priority, index):
        # the same state as evicting each as it is found
        broken = [v for v, w in self.succ_other[op] if (sv := start[v]) is not None and sv < chosen + w]
        broken += [u for u, w in self.pred_other[op] if (su := start[u]) is not None and chosen < su + w]
        for j in broken:
            self.unschedule(j)

    def has_positive_self_loop(self, op: int) -> bool:
        if self.self_loops is None:  # asked after every placement: computed once
            self.self_loops = [any(v == u and w > 0 for v, w in edges) for u, edges in enumerate(self.succ)]
        return self.self_loops[op]


def _normalised(start: list[int], ii: int) -> list[int]:
    """Shift so the earliest task starts in [0, II) (stage 0)."""
    base = min(start)
    shift = base - base % ii if base >= 0 else -((-base + ii - 1) // ii) * ii
    return [s - shift for s in start]


def iterative_modulo_schedule(
    p: LoopProblem, ii: int, versions: dict[str, int], budget_factor: int = 6, best_fit: bool = False
) -> list[int] | None:
    """Start times of a modulo schedule at `ii` with fixed `versions`, or None.

    best_fit: place each task in the free run of the window that it fills best
    (Placement.free_slot) instead of the first one after its earliest start."""
    n = len(p.tasks)
    if any(t.pipe_time > ii for t in p.tasks):
        return None
    succ, pred = _weighted_edges(p, ii, versions)
    height = _heights(succ)
    if height is None:
        return None
    state = _Placement(p, ii, succ, pred, _conflict_lists(p))
    state.occupy(p)
    state.best_fit = best_fit
    state.prioritise(height)
    budget = budget_factor * n
    while state.unscheduled and budget > 0:
        budget -= 1
        op = state.next_task()
        estart = state.earliest_start(op)
        chosen = state.free_slot(op, estart)
        if chosen is None:
            chosen = state.force_slot(op, estart)
        state.place(op, chosen)
        if state.has_positive_self_loop(op):
            return None
    if state.unscheduled:
        return None
    sched = _normalised([int(s) for s in state.start], ii)  # type: ignore[arg-type]
    if check_schedule(p, ii, sched, versions):
        return None
    return sched


def list_modulo_schedule(p: LoopProblem, ii: int, versions: dict[str, int]) -> list[int] | None:
    """Start times of a modulo schedule at `ii`, or None: a list schedule without
    evictions.

    Tasks in topological order of the dependences of distance 0 (ties by index),
    each at the first time from its earliest start whose arc is free in the modulo
    window; then the least stages for those offsets. Loops of independent chains
    whose pipe the bound saturates are packed hole-free this way (each chain's ops
    follow the previous chain's on the pipe), where IMS, choosing by height and
    evicting, fragments the window. Cheap (one placement per task); None when a
    task finds no free arc or the offsets break a recurrence.
    """
    n = len(p.tasks)
    if any(t.pipe_time > ii for t in p.tasks):
        return None
    order = _topological_order(p, versions)
    if order is None:
        return None
    succ, pred = _weighted_edges(p, ii, versions)
    state = _Placement(p, ii, succ, pred, _conflict_lists(p))
    state.occupy(p)
    for op in order:
        chosen = state.free_slot(op, state.earliest_start(op))
        if chosen is None:
            return None
        state.put(op, chosen)
    sched = compact(p, ii, [int(s) for s in state.start], versions)  # type: ignore[arg-type]
    sched = _normalised(sched, ii)
    if len(sched) != n or check_schedule(p, ii, sched, versions):
        return None
    return sched


def _topological_order(p: LoopProblem, versions: dict[str, int]) -> list[int] | None:
    """Tasks in an order where every distance-0 dependence goes forward (least
    index first among the ready ones); None if those dependences form a cycle."""
    n = len(p.tasks)
    indegree = [0] * n
    forward: list[list[int]] = [[] for _ in range(n)]
    for d, dist in zip(p.deps, dep_distances(p, versions), strict=False):
        if dist == 0 and d.src != d.dst:
            forward[d.src].append(d.dst)
            indegree[d.dst] += 1
    ready = [i for i in range(n) if indegree[i] == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        u = heapq.heappop(ready)
        order.append(u)
        for v in forward[u]:
            indegree[v] -= 1
            if indegree[v] == 0:
                heapq.heappush(ready, v)
    return order if len(order) == n else None
