"""Lower bounds (ResMII, RecMII), a sequential schedule and a schedule checker.

All graph algorithms here are plain Python on small graphs (tens of tasks).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .problem import LoopProblem, SchedulingError


@dataclass
class MiiBounds:
    res_mii: dict[str, int]      # pipe -> sum of ii of the tasks on it
    conflict_mii: int            # heaviest clique of mutually exclusive tasks
    rec_mii: int                 # 0 when the dependence graph has no cycle
    mii: int
    binding: str                 # a pipe name, "conflict" or "recurrence"


def dep_distances(p: LoopProblem, versions: dict[str, int]) -> list[int]:
    """Iteration distance of every dependence for the given buffer versions."""
    return [d.distance + (versions[d.buffer] if d.buffer is not None else 0) for d in p.deps]


def max_versions(p: LoopProblem) -> dict[str, int]:
    return {b.name: p.max_versions(b) for b in p.buffers}


def _has_positive_cycle(n: int, edges: list[tuple[int, int, int]]) -> bool:
    """Bellman-Ford longest paths from a virtual source; True if a positive cycle exists.

    Small graphs in plain Python; larger ones with one vectorised relaxation of
    every edge per round (after k rounds: longest paths of at most k edges, so
    a change in round n means a positive cycle)."""
    if len(edges) * n <= 4096:
        dist = [0] * n
        for _ in range(n):
            changed = False
            for u, v, w in edges:
                nd = dist[u] + w
                if nd > dist[v]:
                    dist[v] = nd
                    changed = True
            if not changed:
                return False
        return True
    import numpy as np

    arr = np.array(edges, dtype=np.int64)
    # the edges grouped by target, so that a round's best candidate per target is one
    # np.maximum.reduceat (np.maximum.at, unbuffered, cost most of rec_mii's bisection
    # on the wide loops' thousands of dependences)
    arr = arr[np.argsort(arr[:, 1], kind="stable")]
    src, dst, weight = arr[:, 0], arr[:, 1], arr[:, 2]
    starts = np.flatnonzero(np.r_[True, dst[1:] != dst[:-1]])
    targets = dst[starts]
    dist_np = np.zeros(n, dtype=np.int64)
    for _ in range(n):
        new = dist_np.copy()
        new[targets] = np.maximum(new[targets], np.maximum.reduceat(dist_np[src] + weight, starts))
        if np.array_equal(new, dist_np):
            return False
        dist_np = new
    return True


def _cycle_with_positive_weight(n: int, edges: list[tuple[int, int, int]]) -> list[int]:
    """Return the tasks on some positive cycle (for error messages)."""
    dist = [0] * n
    pred = [-1] * n
    last = -1
    for _ in range(n + 1):
        last = -1
        for u, v, w in edges:
            if dist[u] + w > dist[v]:
                dist[v] = dist[u] + w
                pred[v] = u
                last = v
        if last < 0:
            return []
    v = last
    for _ in range(n):
        v = pred[v]
    cycle = [v]
    u = pred[v]
    while u != v and u >= 0 and len(cycle) <= n:
        cycle.append(u)
        u = pred[u]
    return list(reversed(cycle))


def check_zero_distance_cycles(p: LoopProblem) -> None:
    """A cycle of distance 0 with positive latency can never be scheduled."""
    zero = [(d.src, d.dst, d.latency) for d in p.deps if d.distance == 0 and d.buffer is None]
    n = len(p.tasks)
    if _has_positive_cycle(n, zero):
        cyc = _cycle_with_positive_weight(n, zero)
        names = " -> ".join(p.tasks[i].name for i in cyc + cyc[:1])
        raise SchedulingError(
            f"dependence cycle with iteration distance 0 and positive latency: {names}"
        )


def rec_mii(p: LoopProblem, versions: dict[str, int] | None = None) -> int:
    """Smallest II with no positive cycle in lat - II*dist (0 when acyclic).

    Equals max over cycles of ceil(sum lat / sum dist); buffer distances at the
    given versions (default: their maximum, which gives a valid lower bound).
    """
    versions = max_versions(p) if versions is None else versions
    dists = dep_distances(p, versions)
    n = len(p.tasks)
    base = [(d.src, d.dst, d.latency, dist) for d, dist in zip(p.deps, dists, strict=False)]

    def feasible(ii: int) -> bool:
        return not _has_positive_cycle(n, [(u, v, lat - ii * dd) for u, v, lat, dd in base])

    if feasible(0):
        return 0
    hi = max(1, sum(max(0, d.latency) for d in p.deps))  # a carried latency may be negative
    if not feasible(hi):
        # only a zero-distance cycle stays positive for every II
        check_zero_distance_cycles(p)
        raise SchedulingError("dependence graph has a cycle that no II can satisfy")
    lo = 1
    while lo < hi:
        mid = (lo + hi) // 2
        if feasible(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _max_weight_clique(n: int, adj: list[set[int]], weight: list[int], budget: int = 20000) -> tuple[int, list[int]]:
    """Bron-Kerbosch with pivoting; stops after `budget` calls (any clique is a valid bound)."""
    best = [0, []]
    calls = [0]
    # the adjacency as bitmasks too: the pivot's key, |adj[u] & cand| for every u of
    # cand | excl, is a popcount of an AND (the set intersections cost 6% of a 256-op
    # loop's compile); the sets stay, so that max sees the same order and ties
    bits = [sum(1 << v for v in a) for a in adj]

    def bk(r: list[int], w: int, cand: set[int], excl: set[int], cand_bits: int) -> None:
        calls[0] += 1
        if calls[0] > budget:
            return
        if w + sum(weight[v] for v in cand) <= best[0]:
            return
        if not cand and not excl:
            if w > best[0]:
                best[0], best[1] = w, list(r)
            return
        if not cand:
            return
        pivot = max(cand | excl, key=lambda u: (bits[u] & cand_bits).bit_count())
        for v in sorted(cand - adj[pivot]):
            bk(r + [v], w + weight[v], cand & adj[v], excl & adj[v], cand_bits & bits[v])
            cand = cand - {v}
            cand_bits &= ~(1 << v)
            excl = excl | {v}

    bk([], 0, set(range(n)), set(), (1 << n) - 1)
    return best[0], best[1]


def compute_mii(p: LoopProblem) -> MiiBounds:
    res: dict[str, int] = {}
    for t in p.tasks:
        for pipe in t.pipes:
            res[pipe] = res.get(pipe, 0) + t.pipe_time
    best_pipe = max(sorted(res), key=lambda k: res[k])
    res_bound = res[best_pipe]
    conflict_bound = res_bound
    if p.conflicts:
        n = len(p.tasks)
        adj: list[set[int]] = [set() for _ in range(n)]
        for i, j in p.resource_pairs():
            adj[i].add(j)
            adj[j].add(i)
        conflict_bound = max(res_bound, _max_weight_clique(n, adj, [t.ii for t in p.tasks])[0])
    rec = rec_mii(p)
    mii = max(1, res_bound, conflict_bound, rec)
    if rec > max(res_bound, conflict_bound):
        binding = "recurrence"
    elif conflict_bound > res_bound:
        binding = "conflict"
    else:
        binding = best_pipe
    return MiiBounds(res, conflict_bound, rec, mii, binding)


def topological_order(p: LoopProblem) -> list[int]:
    """Order compatible with the zero-distance dependences (ties by index)."""
    n = len(p.tasks)
    succ: list[list[int]] = [[] for _ in range(n)]
    indeg = [0] * n
    for d in p.deps:
        if d.distance == 0 and d.buffer is None and d.src != d.dst:
            succ[d.src].append(d.dst)
            indeg[d.dst] += 1
    import heapq

    ready = [i for i in range(n) if indeg[i] == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        u = heapq.heappop(ready)
        order.append(u)
        for v in succ[u]:
            indeg[v] -= 1
            if indeg[v] == 0:
                heapq.heappush(ready, v)
    if len(order) < n:
        # zero-latency zero-distance cycles: any order of the rest is fine for
        # the difference constraints, which are re-checked by the caller
        order += [i for i in range(n) if i not in set(order)]
    return order


def zero_distance_asap(p: LoopProblem) -> list[int]:
    """Earliest start of each task from the zero-distance dependences alone."""
    n = len(p.tasks)
    edges = [(d.src, d.dst, d.latency) for d in p.deps if d.distance == 0 and d.buffer is None]
    est = [0] * n
    for _ in range(n):
        changed = False
        for u, v, w in edges:
            if est[u] + w > est[v]:
                est[v] = est[u] + w
                changed = True
        if not changed:
            break
    return est


def length_lower_bound(p: LoopProblem) -> int:
    est = zero_distance_asap(p)
    return max(e + t.latency for e, t in zip(est, p.tasks, strict=False))


def pipe_length_bound(p: LoopProblem) -> int:
    """A lower bound on the length of one iteration (or a region's makespan): per pipe,
    the earliest start of its tasks, their issue intervals one after the other (the
    tasks of one iteration never overlap on a pipe, also in a modulo schedule) and the
    shortest tail (latency - ii) of the one that issues last."""
    est = zero_distance_asap(p)
    bound = 0
    by_pipe: dict[str, list[int]] = {}
    for i, t in enumerate(p.tasks):
        for pipe in t.pipes:
            by_pipe.setdefault(pipe, []).append(i)
    for members in by_pipe.values():
        tasks = [p.tasks[i] for i in members]
        bound = max(bound, min(est[i] for i in members) + sum(t.ii for t in tasks)
                    + min(t.latency - t.ii for t in tasks))
    return bound


def sequential_schedule(p: LoopProblem) -> tuple[int, list[int]]:
    """One iteration at a time, no overlap between iterations; versions all 1.

    Always feasible when the problem is (zero-distance graph without positive
    cycles, one version of every buffer fits): II covers the whole iteration.
    """
    n = len(p.tasks)
    # conflict[i][j]: (cycles i keeps j waiting, cycles j keeps i waiting)
    conflict: list[dict[int, tuple[int, int]]] = [{} for _ in range(n)]
    for (i, j), (a, b) in p.pair_arcs().items():
        conflict[i][j] = (a, b)
        conflict[j][i] = (b, a)
    est = zero_distance_asap(p)
    start = [0] * n
    placed: list[int] = []
    incoming: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for d in p.deps:
        if d.distance == 0 and d.buffer is None:
            incoming[d.dst].append((d.src, d.latency))
    done: set[int] = set()
    for i in topological_order(p):
        t = est[i]
        for u, lat in incoming[i]:
            if u in done:
                t = max(t, start[u] + lat)
        busy = sorted((start[j], start[j] + conflict[i][j][1], conflict[i][j][0]) for j in placed if j in conflict[i])
        for a, b, own in busy:
            if t + own <= a:
                continue
            if t < b:
                t = b
        start[i] = t
        placed.append(i)
        done.add(i)
    # zero-distance edges into earlier-placed tasks (zero-latency cycles) and
    # ASAP offsets may need a fix-up pass; iterate to a fixpoint (graph is small)
    ones = {b.name: 1 for b in p.buffers}
    dists = dep_distances(p, ones)
    ii = max(max(s + t.pipe_time for s, t in zip(start, p.tasks, strict=False)), 1)
    for d, dd in zip(p.deps, dists, strict=False):
        slack = start[d.dst] - start[d.src]
        if dd == 0:
            continue
        need = -(-(d.latency - slack) // dd)
        ii = max(ii, need)
    return ii, start


def _task_errors(p: LoopProblem, ii: int, start: list[int]) -> list[str]:
    errors = []
    for i, t in enumerate(p.tasks):
        if start[i] < 0:
            errors.append(f"task {t.name} starts at {start[i]} < 0")
        if t.pipe_time > ii:
            errors.append(f"task {t.name} holds its pipe {t.pipe_time} > II {ii}")
    return errors


def _buffer_errors(p: LoopProblem, versions: dict[str, int]) -> list[str]:
    """Versions out of range, then scopes over capacity."""
    errors = []
    for b in p.buffers:
        v = versions.get(b.name, 0)
        if not 1 <= v <= p.max_versions(b):
            errors.append(f"buffer {b.name} has {v} versions, allowed 1..{p.max_versions(b)}")
    used: dict[str, int] = {}
    for b in p.buffers:
        used[b.scope] = used.get(b.scope, 0) + versions.get(b.name, 0) * b.size
    for scope, u in used.items():
        if scope in p.capacity and u > p.capacity[scope]:
            errors.append(f"scope {scope} uses {u} bytes > capacity {p.capacity[scope]}")
    return errors


def _dependence_errors(p: LoopProblem, ii: int, start: list[int], versions: dict[str, int]) -> list[str]:
    return [
        f"dependence {p.tasks[d.src].name} -> {p.tasks[d.dst].name} violated"
        for d, dd in zip(p.deps, dep_distances(p, versions), strict=False)
        if start[d.dst] - start[d.src] < d.latency - ii * dd
    ]


def arcs_disjoint(ri: int, ii_i: int, rj: int, ii_j: int, ii: int) -> bool:
    """Whether arcs [ri, ri + ii_i) and [rj, rj + ii_j) keep apart on a circle of `ii`."""
    return (rj - ri >= ii_i and ri - rj + ii >= ii_j) or (ri - rj >= ii_j and rj - ri + ii >= ii_i)


def arcs_disjoint_each(ri: Any, ii_i: Any, rj: Any, ii_j: Any, ii: int) -> Any:
    """`arcs_disjoint` element by element over numpy arrays (any argument may be one; the
    same inequalities, joined by `&` and `|` where `and` and `or` short-circuit a scalar's):
    IMS's evictions against a task's many conflicts at once."""
    return ((rj - ri >= ii_i) & (ri - rj + ii >= ii_j)) | ((ri - rj >= ii_j) & (rj - ri + ii >= ii_i))


def _resource_errors(p: LoopProblem, ii: int, start: list[int]) -> list[str]:
    """Pairs of exclusive tasks whose arcs on the modulo circle overlap."""
    errors = []
    for (i, j), (a, b) in p.pair_arcs().items():
        if not arcs_disjoint(start[i] % ii, a, start[j] % ii, b, ii):
            errors.append(f"tasks {p.tasks[i].name} and {p.tasks[j].name} overlap on a resource")
    return errors


def check_schedule(p: LoopProblem, ii: int, start: list[int], versions: dict[str, int]) -> list[str]:
    """All constraint violations of a modulo schedule (empty list: valid)."""
    if ii < 1:
        return [f"II {ii} < 1"]
    return (_task_errors(p, ii, start) + _buffer_errors(p, versions)
            + _dependence_errors(p, ii, start, versions) + _resource_errors(p, ii, start))


def compact(p: LoopProblem, ii: int, start: list[int], versions: dict[str, int]) -> list[int]:
    """Same offsets, least stages: the earliest schedule with these offsets.

    With the offsets r fixed, the stages satisfy difference constraints
    II*(k_v - k_u) >= lat - II*dist + r_u - r_v; their least solution with
    k >= 0 minimises every start at once, hence the schedule length.
    """
    n = len(p.tasks)
    offs = [s % ii for s in start]
    dists = dep_distances(p, versions)
    k = [0] * n
    for _ in range(n + 1):
        changed = False
        for d, dd in zip(p.deps, dists, strict=False):
            need = -(-(ii * k[d.src] + offs[d.src] + d.latency - ii * dd - offs[d.dst]) // ii)
            if need > k[d.dst]:
                k[d.dst] = need
                changed = True
        if not changed:
            return [ii * kk + r for kk, r in zip(k, offs, strict=False)]
    return list(start)  # cannot happen for a valid schedule; keep it unchanged
