"""Iterative modulo scheduling (B. R. Rau, MICRO-27, 1994) for a fixed II.

Used for the initial upper bound on II and as the fallback when the solver's
budget runs out.  Resources are the pairwise exclusions of the problem (same
pipe or explicit conflict); a task occupies the arc [r, r + ii) of the modulo
circle of length II.
"""

from __future__ import annotations

from .bounds import check_schedule, dep_distances
from .problem import LoopProblem


def arcs_disjoint(ri: int, ii_i: int, rj: int, ii_j: int, ii: int) -> bool:
    return (rj - ri >= ii_i and ri - rj + ii >= ii_j) or (ri - rj >= ii_j and rj - ri + ii >= ii_i)


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


def iterative_modulo_schedule(  # noqa: C901 (over the limit before the limit was set; split pending)
    p: LoopProblem, ii: int, versions: dict[str, int], budget_factor: int = 6
) -> list[int] | None:
    """Start times of a modulo schedule at `ii` with fixed `versions`, or None."""
    n = len(p.tasks)
    if any(t.ii > ii for t in p.tasks):
        return None
    dists = dep_distances(p, versions)
    succ: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    pred: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for d, dd in zip(p.deps, dists, strict=False):
        w = d.latency - ii * dd
        succ[d.src].append((d.dst, w))
        pred[d.dst].append((d.src, w))
    conflict: list[list[int]] = [[] for _ in range(n)]
    for i, j in p.resource_pairs():
        conflict[i].append(j)
        conflict[j].append(i)

    # height-based priority: longest path to any sink in lat - II*dist
    height = [0] * n
    for _ in range(n + 1):
        changed = False
        for u in range(n):
            for v, w in succ[u]:
                if height[v] + w > height[u]:
                    height[u] = height[v] + w
                    changed = True
        if not changed:
            break
    else:
        return None  # positive cycle: II below RecMII for these versions

    start: list[int | None] = [None] * n
    last_time: list[int | None] = [None] * n
    unscheduled = set(range(n))
    budget = budget_factor * n
    tii = [t.ii for t in p.tasks]

    while unscheduled and budget > 0:
        budget -= 1
        op = max(unscheduled, key=lambda i: (height[i], -i))
        estart = 0
        for u, w in pred[op]:
            su = start[u]
            if su is not None and u != op:
                estart = max(estart, su + w)
        # candidate slots: estart and every end of a conflicting arc
        occupied = [(sj % ii, tii[j]) for j in conflict[op] if (sj := start[j]) is not None]
        cands = {estart}
        for rj, ij in occupied:
            cands.add(estart + (rj + ij - estart) % ii)
        chosen = None
        for t in sorted(cands):
            if t > estart + ii - 1:
                break
            r = t % ii
            if all(arcs_disjoint(r, tii[op], rj, ij, ii) for rj, ij in occupied):
                chosen = t
                break
        if chosen is None:
            last = last_time[op]
            chosen = estart if last is None or estart > last else last + 1
            r = chosen % ii
            for j in conflict[op]:
                sj = start[j]
                if sj is not None and not arcs_disjoint(r, tii[op], sj % ii, tii[j], ii):
                    start[j] = None
                    unscheduled.add(j)
        start[op] = chosen
        last_time[op] = chosen
        unscheduled.discard(op)
        # evict dependents whose constraint the new placement breaks
        for v, w in succ[op]:
            sv = start[v]
            if v != op and sv is not None and sv < chosen + w:
                start[v] = None
                unscheduled.add(v)
        for u, w in pred[op]:
            su = start[u]
            if u != op and su is not None and chosen < su + w:
                start[u] = None
                unscheduled.add(u)
        for v, w in succ[op]:
            if v == op and w > 0:
                return None
    if unscheduled:
        return None
    sched = [int(s) for s in start]  # type: ignore[arg-type]
    base = min(sched)
    # normalise so the earliest task starts in [0, II) (stage 0)
    shift = base - base % ii if base >= 0 else -((-base + ii - 1) // ii) * ii
    sched = [s - shift for s in sched]
    if check_schedule(p, ii, sched, versions):
        return None
    return sched
