"""Per-resource occupancy in the scheduler (issue 18 item 1, route (a)): a task's `hold`
keeps its own pipes busy after its ii (the drain of a set_flag right after it, which
waits for the task to complete), while a resource it shares only through `conflicts`
(the HBM port of the GM copies) is free after its ii.

Checked against the definition, independently of the solver's code: every pair of
tasks that may not overlap is separated on the modulo circle by the right length
(pipe_time for a shared pipe, ii for a shared conflict only), on the solver, the
bisection search, iterative modulo scheduling and the sequential schedule."""

from __future__ import annotations

import random

import pytest

from ascend_mlir.scheduling import Dep, LoopProblem, Task, check_schedule, compute_mii, schedule_loop
from ascend_mlir.scheduling.bounds import max_versions, sequential_schedule
from ascend_mlir.scheduling.ims import iterative_modulo_schedule, list_modulo_schedule


def _apart(r_i: int, len_i: int, r_j: int, len_j: int, ii: int) -> bool:
    """Arcs [r_i, r_i + len_i) and [r_j, r_j + len_j) of the circle of length ii are disjoint."""
    busy_i = {(r_i + k) % ii for k in range(len_i)}
    return not any((r_j + k) % ii in busy_i for k in range(len_j))


def _definition_errors(p: LoopProblem, ii: int, start: list[int]) -> list[tuple[int, int]]:
    """Pairs that overlap under the definition of the module doc."""
    bad = []
    conflicts = {tuple(sorted(c)) for c in p.conflicts}
    for i in range(len(p.tasks)):
        for j in range(i + 1, len(p.tasks)):
            ti, tj = p.tasks[i], p.tasks[j]
            if set(ti.pipes) & set(tj.pipes):
                a, b = ti.ii + ti.hold, tj.ii + tj.hold
            elif (i, j) in conflicts:
                a, b = ti.ii, tj.ii
            else:
                continue
            if not _apart(start[i] % ii, a, start[j] % ii, b, ii):
                bad.append((i, j))
    for i, t in enumerate(p.tasks):
        if t.ii + t.hold > ii:
            bad.append((i, i))
    return bad


def _port_problem() -> LoopProblem:
    """Two loads (MTE2) and two stores (MTE3) on one HBM port; the stores' sets drain
    MTE3 for 172 cycles after an 80-cycle issue."""
    tasks = [
        Task("load0", "MTE2", 183, 104),
        Task("load1", "MTE2", 183, 104),
        Task("store0", "MTE3", 252, 80, hold=172),
        Task("store1", "MTE3", 252, 80, hold=172),
    ]
    conflicts = [(i, j) for i in range(2) for j in range(2, 4)]
    return LoopProblem(tasks, deps=[Dep(0, 2, 183), Dep(1, 3, 183)], conflicts=conflicts)


def test_hold_counts_on_its_pipe_not_on_the_shared_port():
    p = _port_problem()
    bounds = compute_mii(p)
    # MTE3 holds 2 x (80 + 172); the port only sees the issues: 2 x 104 + 2 x 80
    assert bounds.res_mii["MTE3"] == 504
    assert bounds.conflict_mii == 504
    r = schedule_loop(p)
    assert r.ii == 504 and r.status == "optimal"
    assert not check_schedule(p, r.ii, r.start, r.versions)
    assert not _definition_errors(p, r.ii, r.start)
    stores = sorted(r.start[i] % r.ii for i in (2, 3))
    assert stores[1] - stores[0] >= 252 and stores[0] + r.ii - stores[1] >= 252


def test_check_schedule_refuses_a_drain_overlapped_on_its_pipe():
    p = _port_problem()
    # the stores 100 apart: their issues miss each other, the first one's drain does not
    start = [0, 104, 208, 308]
    errors = check_schedule(p, 800, start, {})
    assert any("store0" in e and "store1" in e for e in errors), errors
    # a load may issue on the port while a store's drain holds MTE3
    ok = [0, 300, 200, 483]
    assert not check_schedule(p, 800, ok, {}), check_schedule(p, 800, ok, {})


def test_a_hold_longer_than_the_ii_is_refused():
    p = LoopProblem([Task("store", "MTE3", 252, 80, hold=172)])
    assert check_schedule(p, 200, [0], {})
    assert compute_mii(p).mii == 252
    assert schedule_loop(p).ii == 252


def test_negative_hold_is_invalid():
    with pytest.raises(ValueError, match="hold"):
        LoopProblem([Task("t", "V", 8, 8, hold=-1)]).validate()


def _random_problem(rng: random.Random) -> LoopProblem:
    n = rng.randint(2, 7)
    pipes = ["MTE2", "MTE3", "V"]
    tasks = []
    for k in range(n):
        ii = rng.randint(1, 30)
        latency = ii + rng.randint(0, 40)
        hold = rng.choice([0, latency - ii, rng.randint(0, 20)])
        tasks.append(Task(f"t{k}", rng.choice(pipes), latency, ii, hold=hold))
    deps = [Dep(a, a + 1, tasks[a].latency) for a in range(n - 1) if rng.random() < 0.6]
    conflicts = [(i, j) for i in range(n) for j in range(i + 1, n)
                 if tasks[i].pipes != tasks[j].pipes and rng.random() < 0.4]
    return LoopProblem(tasks, deps=deps, conflicts=conflicts)


@pytest.mark.parametrize("seed", range(12))
def test_every_scheduler_keeps_pipe_holds_and_port_issues_apart(seed):
    p = _random_problem(random.Random(seed))
    for search in ("incremental", "bisect"):
        r = schedule_loop(p, search=search, optimize_secondary=False)
        assert not _definition_errors(p, r.ii, r.start), (search, r.ii, r.start)
        assert r.ii >= compute_mii(p).mii
    versions = max_versions(p)
    ii, start = sequential_schedule(p)
    assert not _definition_errors(p, ii, start)
    for heuristic in (iterative_modulo_schedule, list_modulo_schedule):
        for probe in range(compute_mii(p).mii, ii + 1):
            found = heuristic(p, probe, versions)
            if found is not None:
                assert not _definition_errors(p, probe, found), (heuristic.__name__, probe, found)
                break
