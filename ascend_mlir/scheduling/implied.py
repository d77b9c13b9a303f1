"""Dependences another path of dependences already implies (a weighted transitive
reduction), dropped from what the solver sees.

A dependence (u, v, latency, distance, buffer) asks `start[v] + II * dist >= start[u] +
latency`, with dist = distance, or distance + the buffer's version count. A path of
dependences u -> ... -> v asks the sum of those: when its latencies add up to at least
`latency` and its distances to at most `dist` (for every II >= 1 and every version
count), every schedule that meets the path meets the dependence, so dropping the
dependence leaves the set of schedules unchanged. A loop body whose ops ping-pong
between two tiles has a dependence between every pair of ops that touch one tile:
O(L^2) for a chain of L ops, of which a chain of O(L) implies the rest (1356 -> 68 on
four chains of 16 ops), and every stage of the scheduler pays for each one.

The paths looked for (enough for those bodies, exact for what they drop):
* a dependence of distance 0 (no buffer) is implied by a path of at least two
  distance-0 dependences whose latencies add up to at least its own (the longest such
  path, over the distance-0 graph, which program order makes acyclic);
* a carried one (u, v) by a path of distance-0 dependences from u to some w followed by
  a carried (w, v), or a carried (u, w) followed by a distance-0 path from w to v, the
  carried one with the same buffer and a distance no larger (and not itself).

Each dropped dependence is implied by a path of dependences that are either kept or
dropped for a path that is, by induction on (distance, span): the distance-0 graph is
acyclic and each carried replacement has a smaller distance or a shorter span. Which
dependences publish a flag (LoopModel.flag_drains) is decided on all of them, not on
what is kept here; the replay of the code (realize.py) and everything after the solve
keep the loop's problem as it was: only `schedule_loop` searches on the reduced one.
"""

from __future__ import annotations

from collections.abc import Sequence

from dataclasses import replace

import numpy as np

from .problem import LoopProblem

NO_PATH = -(1 << 50)  # longest path of "no path": sums of two stay far from int64 overflow

SolverDep = tuple[int, int, int, int, str | None]  # (src, dst, latency, distance, buffer)


# problems of at most this many tasks are searched as they are: they solve in well under
# a second with every dependence, and a search on fewer constraints, though over the
# same schedules, may end on another schedule of the same II (z3's model, IMS's
# placements): 7 of 53 generated kernels of 26-66 tasks got other starts (one random
# kernel a worse written II, 582 -> 634), none of the 256-op ones this is for
MIN_TASKS = 128


def without_implied(p: LoopProblem) -> LoopProblem:
    """`p` less its implied dependences (and less exact repeats of one (src, dst,
    distance, buffer) at no larger latency) when it has more than MIN_TASKS tasks;
    else, or when none is implied, `p` itself."""
    if len(p.tasks) <= MIN_TASKS:
        return p
    deps = [(d.src, d.dst, d.latency, d.distance, d.buffer) for d in p.deps]
    drop = implied(len(p.tasks), deps)
    if not any(drop):
        return p
    return replace(p, deps=[d for d, dropped in zip(p.deps, drop, strict=True) if not dropped])


def longest_paths(n: int, deps: Sequence[SolverDep]) -> np.ndarray:
    """`L[u, v]`: the longest path from u to v over the distance-0 dependences (u < v
    for each, program order), NO_PATH where none; L[u, u] = 0."""
    succ: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for s, t, lat, dist, buf in deps:
        if dist == 0 and buf is None and s != t:
            succ[s].append((t, lat))
    longest = np.full((n, n), NO_PATH, dtype=np.int64)
    for u in range(n - 1, -1, -1):
        row = longest[u]
        for w, lat in succ[u]:
            np.maximum(row, longest[w] + lat, out=row)
        row[u] = 0
    return longest


def implied(n: int, deps: Sequence[SolverDep]) -> list[bool]:
    """Per dependence, whether a path of the others implies it (the module doc), or an
    earlier one of the same (src, dst, distance, buffer) with no smaller latency."""
    out = [False] * len(deps)
    first: dict[tuple[int, int, int, str | None], int] = {}
    for e, (s, t, lat, dist, buf) in enumerate(deps):
        if dist == 0 and buf is None and s >= t:
            return [False] * len(deps)  # not in program order: the paths below assume it
        key = (s, t, dist, buf)
        if key in first and deps[first[key]][2] >= lat:
            out[e] = True
        elif key in first:
            out[first[key]], first[key] = True, e
        else:
            first[key] = e
    unique = [deps[e] for e in first.values()]
    longest = longest_paths(n, unique).tolist()
    succ0: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    carried_into: dict[tuple[int, str | None], list[tuple[int, int, int]]] = {}
    carried_from: dict[tuple[int, str | None], list[tuple[int, int, int]]] = {}
    for s, t, lat, dist, buf in unique:
        if dist == 0 and buf is None:
            succ0[s].append((t, lat))
        else:
            carried_into.setdefault((t, buf), []).append((s, lat, dist))
            carried_from.setdefault((s, buf), []).append((t, lat, dist))
    for e in first.values():
        s, t, lat, dist, buf = deps[e]
        if dist == 0 and buf is None:
            # through a first step s -> w (w != t), then the longest path w -> t
            out[e] = any(w != t and step + longest[w][t] >= lat for w, step in succ0[s])
            continue
        # a distance-0 path s -> w, then a carried w -> t
        out[e] = any(
            (w, d) != (s, dist) and d <= dist and longest[s][w] + step >= lat
            for w, step, d in carried_into[(t, buf)]
        ) or any(
            # a carried s -> w, then a distance-0 path w -> t
            (w, d) != (t, dist) and d <= dist and step + longest[w][t] >= lat
            for w, step, d in carried_from[(s, buf)]
        )
    return out
