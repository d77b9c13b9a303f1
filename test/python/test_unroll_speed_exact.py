"""The unroll search's two speed-ups give the answers of their plain definitions.

* `coalesced` keeps the same-pass reachability closed in bit sets instead of searching
  from each consumer for each candidate dependence: its dependences are those of the
  search-per-candidate definition (written out here) on random unrolled loops.
* `ii_lower_bound(p, cap)` stops its structural scan at `cap`: it equals
  min(ii_lower_bound(p), cap) whenever the uncapped bound is at least the MII, the
  only question the unroll search asks ("can this U beat the best II so far?").
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from ascend_mlir.scheduling import Buffer, Dep, LoopProblem, Task
from ascend_mlir.scheduling.modulo import ii_lower_bound
from ascend_mlir.scheduling.set_points import publishing_pipe
from ascend_mlir.scheduling.unroll import coalesced

PIPES = ("MTE2", "V", "MTE3")


def _random_loop(seed: int) -> LoopProblem:
    """A loop body of 4-14 tasks: forward distance-0 dependences, carried ones and
    buffer (write-after-read) ones, on the DMA and vector pipes."""
    rng = random.Random(seed)
    n = rng.randint(4, 14)
    tasks = []
    for i in range(n):
        ii = rng.randint(1, 60)
        tasks.append(Task(f"t{i}", rng.choice(PIPES), ii + rng.randint(0, 120), ii))
    buffers = [Buffer(f"b{k}", "ub", rng.choice((256, 1024)), None) for k in range(rng.randint(1, 3))]
    deps = []
    for _ in range(rng.randint(n, 3 * n)):
        a, b = sorted(rng.sample(range(n), 2))
        kind = rng.random()
        if kind < 0.6:
            deps.append(Dep(a, b, tasks[a].latency))
        elif kind < 0.8:
            deps.append(Dep(b, a, tasks[b].latency, rng.randint(1, 2)))
        else:
            deps.append(Dep(b, a, tasks[b].latency, 0, rng.choice(buffers).name))
    return LoopProblem(tasks=tasks, deps=deps, buffers=buffers, capacity={"ub": 16384},
                       num_stages=rng.randint(1, 4), conflicts=[])


def _reaches(succ: list[set[int]], a: int, b: int) -> bool:
    seen, stack = {a}, [a]
    while stack:
        for j in succ[stack.pop()]:
            if j == b:
                return True
            if j not in seen:
                seen.add(j)
                stack.append(j)
    return False


def _coalesced_by_search(p: LoopProblem, u: int, body_tasks: int) -> LoopProblem:
    """coalesced as first written: a search from the consumer for every candidate."""
    if u == 1 or body_tasks == 0:
        return p
    releasing: dict[str, set[int]] = {}
    for d in p.deps:
        pipe = publishing_pipe(p, d, body_tasks)
        if pipe is not None:
            releasing.setdefault(pipe, set()).add(d.src)
    succ: list[set[int]] = [set() for _ in range(body_tasks)]
    for d in p.deps:
        if d.buffer is None and d.distance == 0 and d.src < body_tasks and d.dst < body_tasks:
            succ[d.src].add(d.dst)

    have = {(d.src, d.dst, d.distance, d.buffer) for d in p.deps}
    extra: list[Dep] = []
    for d in p.deps:
        pipe = publishing_pipe(p, d, body_tasks)
        if pipe is None:
            continue
        same_pass = d.buffer is None and d.distance == 0
        for x in sorted(releasing[pipe]):
            key = (x, d.dst, d.distance, d.buffer)
            if key in have or x == d.dst or same_pass and _reaches(succ, d.dst, x):
                continue
            have.add(key)
            extra.append(Dep(x, d.dst, p.tasks[x].latency, d.distance, d.buffer))
            if same_pass:
                succ[x].add(d.dst)
    return replace(p, deps=[*p.deps, *extra]) if extra else p


@pytest.mark.parametrize("u", [2, 4])
def test_coalesced_equals_the_search_per_candidate(u: int) -> None:
    """On bodies unrolled `u` times (copies side by side, coalesced from scratch); the
    comparison is not vacuous: coalesced adds dependences on these loops."""
    added = 0
    for seed in range(60):
        p = _random_loop(seed)
        n = len(p.tasks)
        tasks = [replace(t, name=f"{t.name}.{c}") for c in range(u) for t in p.tasks]
        deps = [replace(d, src=d.src + c * n, dst=d.dst + c * n) for c in range(u) for d in p.deps]
        body = replace(p, tasks=tasks, deps=deps)
        ours = coalesced(body, u, u * n)
        assert list(ours.deps) == list(_coalesced_by_search(body, u, u * n).deps), seed
        added += len(ours.deps) - len(body.deps)
    assert added > 0


def test_capped_lower_bound_answers_the_same_question() -> None:
    checked = 0
    for seed in range(40):
        p = _random_loop(seed)
        try:
            full = ii_lower_bound(p)
        except Exception:  # noqa: BLE001 - a loop without any schedule: nothing to compare
            continue
        for cap in (full - 5, full - 1, full, full + 1, full + 7):
            capped = ii_lower_bound(p, cap)
            assert (capped >= cap) == (full >= cap), (seed, cap)
            assert capped == full or full >= capped >= cap, (seed, cap)
            checked += 1
    assert checked > 100
