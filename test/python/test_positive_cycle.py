"""bounds._has_positive_cycle on graphs big enough for its vectorised rounds (edges grouped
by target, one np.maximum.reduceat per round) answers what plain Bellman-Ford answers."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ascend_mlir.scheduling.bounds import _has_positive_cycle


def plain_positive_cycle(n: int, edges: list[tuple[int, int, int]]) -> bool:
    dist = [0] * n
    for _ in range(n):
        changed = False
        for u, v, w in edges:
            if dist[u] + w > dist[v]:
                dist[v] = dist[u] + w
                changed = True
        if not changed:
            return False
    return True


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(20, 60).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(-30, 4)),
                         min_size=210, max_size=400))))
def test_vectorised_rounds_answer_as_plain_bellman_ford(graph: tuple[int, list[tuple[int, int, int]]]) -> None:
    n, edges = graph
    assert len(edges) * n > 4096  # the vectorised branch
    assert _has_positive_cycle(n, edges) == plain_positive_cycle(n, edges)


def test_a_positive_cycle_through_repeated_targets_is_found() -> None:
    # a ring 0 -> 1 -> ... -> 49 -> 0 of weight +1 in all, hidden among negative edges
    # into the same targets (the grouping by target must keep every candidate)
    n = 50
    ring = [(i, (i + 1) % n, 1 if i == 0 else 0) for i in range(n)]
    noise = [(j, i, -5) for i in range(n) for j in range(0, n, 7)]
    assert _has_positive_cycle(n, noise + ring)
    assert not _has_positive_cycle(n, noise + [(u, v, w - 1 if u == 0 else w) for u, v, w in ring])
