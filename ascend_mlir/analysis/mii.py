"""Lower bounds on the initiation interval of a loop, for reports (schedule-json).

ResMII of a pipe: the ii of all tasks scheduled on it (they cannot overlap in the modulo
window). RecMII: the smallest II at which no dependence cycle needs more time than its
distance allows (sum(latency) <= II * sum(distance) on every cycle), with a buffer's
distance at its largest allowed version count.
"""

from __future__ import annotations

from collections.abc import Sequence

PIPES = ("MTE1", "MTE2", "MTE3", "M", "V", "FIX", "S")


def res_mii(pipes: Sequence[str], iis: Sequence[int]) -> dict[str, int]:
    """Per pipe (only pipes used), the sum of the ii of its tasks."""
    out: dict[str, int] = {}
    for pipe, ii in zip(pipes, iis):
        out[pipe] = out.get(pipe, 0) + ii
    return {p: out[p] for p in PIPES if p in out} | {
        p: v for p, v in sorted(out.items()) if p not in PIPES
    }


def _has_positive_cycle(n: int, edges: Sequence[tuple[int, int, int, int]], ii: int) -> bool:
    """Bellman-Ford on weights latency - ii * distance (longest paths)."""
    dist = [0] * n
    for _ in range(n):
        changed = False
        for u, v, lat, d in edges:
            w = dist[u] + lat - ii * d
            if w > dist[v]:
                dist[v] = w
                changed = True
        if not changed:
            return False
    return True


def rec_mii(n: int, edges: Sequence[tuple[int, int, int, int]]) -> int:
    """edges: (src, dst, latency, distance). A cycle of distance 0 has no bound (the
    program order never makes one); such cycles are ignored by treating them as 0."""
    carried = [e for e in edges if e[3] > 0]
    if not carried:
        return 0
    hi = max(1, sum(e[2] for e in edges if e[2] > 0))
    if _has_positive_cycle(n, edges, hi):
        return hi  # a zero-distance cycle: report the sum (never reached from real IR)
    lo = 0
    if not _has_positive_cycle(n, edges, 0):
        return 0
    while hi - lo > 1:  # positive cycle at lo, none at hi
        mid = (lo + hi) // 2
        if _has_positive_cycle(n, edges, mid):
            lo = mid
        else:
            hi = mid
    return hi


def binding(res: dict[str, int], rec: int) -> str:
    """What bounds the loop: the pipe with the largest ResMII (ties in PIPES order), or
    "recurrence" when a dependence cycle needs more."""
    if not res:
        return "recurrence" if rec > 0 else "none"
    pipe = max(res, key=lambda p: (res[p], -PIPES.index(p) if p in PIPES else -99))
    return "recurrence" if rec > res[pipe] else pipe
