"""Tests of the IR-free scheduler (ascend_mlir.scheduling).

Every returned schedule is checked by `independent_violations`, written here
from the constraint definitions of DESIGN.md section 6 without using the
package's own checker.  Optimality is compared with a brute-force search on
tiny problems.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ascend_mlir.scheduling import (
    Buffer,
    check_schedule,
    Dep,
    LoopProblem,
    SchedulingError,
    Task,
    compute_mii,
    schedule_loop,
    schedule_region,
)

# ----- independent checker --------------------------------------------------------------


def _pipes(t: Task) -> set[str]:
    return {t.pipe} if isinstance(t.pipe, str) else set(t.pipe)


def _exclusive(p: LoopProblem, i: int, j: int) -> bool:
    return bool(_pipes(p.tasks[i]) & _pipes(p.tasks[j])) or (i, j) in p.conflicts or (j, i) in p.conflicts


def _max_v(p: LoopProblem, b: Buffer) -> int:
    return p.num_stages if b.max_versions is None else min(p.num_stages, b.max_versions)


def _busy_cycles(start: int, occupancy: int, ii: int, horizon: int) -> set[int]:
    """Cycles a task occupies, unrolled over the iterations around the horizon."""
    return {c for m in range(-(horizon // ii) - 2, horizon // ii + 2)
            for c in range(start + m * ii, start + m * ii + occupancy)}


def _independent_resource_violations(p: LoopProblem, ii: int, start: list[int]) -> list[str]:
    # resources, unrolled: occupied cycles [start + m*II, start + m*II + ii) never intersect
    bad = []
    horizon = max(start) + 3 * ii + max(t.ii for t in p.tasks)
    for i in range(len(p.tasks)):
        for j in range(i + 1, len(p.tasks)):
            if not _exclusive(p, i, j):
                continue
            busy_i = _busy_cycles(start[i], p.tasks[i].ii, ii, horizon)
            busy_j = _busy_cycles(start[j], p.tasks[j].ii, ii, horizon)
            if busy_i & busy_j:
                bad.append(f"{p.tasks[i].name} and {p.tasks[j].name} share a cycle")
    return bad


def _independent_buffer_violations(p: LoopProblem, versions: dict[str, int]) -> list[str]:
    bad = []
    sizes = {b.name: b for b in p.buffers}
    for name, v in versions.items():
        if not 1 <= v <= _max_v(p, sizes[name]):
            bad.append(f"{name}: {v} versions")
    for scope, cap in p.capacity.items():
        used = sum(versions[b.name] * b.size for b in p.buffers if b.scope == scope)
        if used > cap:
            bad.append(f"{scope}: {used} > {cap}")
    return bad


def independent_violations(p: LoopProblem, ii: int, start: list[int], versions: dict[str, int]) -> list[str]:
    if set(versions) != {b.name for b in p.buffers}:
        return ["versions do not name exactly the buffers"]
    bad = _independent_buffer_violations(p, versions)
    for t, s in zip(p.tasks, start):
        if s < 0 or t.ii > ii:
            bad.append(f"{t.name}: start {s}, ii {t.ii} vs II {ii}")
    # dependences, unrolled over iterations: dst of iteration j+dist after src of j
    for d in p.deps:
        dist = d.distance + (versions[d.buffer] if d.buffer else 0)
        if start[d.dst] + dist * ii < start[d.src] + d.latency:
            bad.append(f"dep {d}")
    return bad + _independent_resource_violations(p, ii, start)


def assert_valid(p: LoopProblem, r) -> None:
    assert independent_violations(p, r.ii, r.start, r.versions) == []
    assert r.start == [k * r.ii + o for k, o in zip(r.stage, r.offset)]
    assert all(0 <= o < r.ii for o in r.offset)
    assert r.length == max(s + t.latency for s, t in zip(r.start, p.tasks))
    assert r.ii >= r.mii


# ----- brute force ----------------------------------------------------------------------


def _least_starts(p: LoopProblem, ii: int, offs: tuple[int, ...], versions: dict[str, int]) -> list[int] | None:
    """Least stages for fixed offsets (difference constraints on k), or None."""
    n = len(p.tasks)
    k = [0] * n
    for _ in range(n + 1):
        changed = False
        for d in p.deps:
            dist = d.distance + (versions[d.buffer] if d.buffer else 0)
            # ii*k_v + r_v >= ii*k_u + r_u + lat - ii*dist
            need = math.ceil((ii * k[d.src] + offs[d.src] + d.latency - ii * dist - offs[d.dst]) / ii)
            if need > k[d.dst]:
                if d.src == d.dst:
                    return None
                k[d.dst] = need
                changed = True
        if not changed:
            return [ii * kk + o for kk, o in zip(k, offs)]
    return None


def brute_force(p: LoopProblem, max_ii: int = 80):
    """(II, bytes, length) of the lexicographic optimum by enumeration."""
    names = [b.name for b in p.buffers]
    choices = [range(1, _max_v(p, b) + 1) for b in p.buffers]
    for ii in range(1, max_ii + 1):
        best = None
        for vs in itertools.product(*choices):
            versions = dict(zip(names, vs))
            if independent_violations(p, ii, [0] * len(p.tasks), versions) and any(
                "share" not in e and "dep" not in e for e in independent_violations(p, ii, [0] * len(p.tasks), versions)
            ):
                continue  # capacity / version range / ii violated independent of starts
            nbytes = sum(v * b.size for v, b in zip(vs, p.buffers))
            for offs in itertools.product(range(ii), repeat=len(p.tasks)):
                ok = all(
                    not _exclusive(p, i, j)
                    or (offs[j] - offs[i] >= p.tasks[i].ii and offs[i] - offs[j] + ii >= p.tasks[j].ii)
                    or (offs[i] - offs[j] >= p.tasks[j].ii and offs[j] - offs[i] + ii >= p.tasks[i].ii)
                    for i in range(len(p.tasks)) for j in range(i + 1, len(p.tasks))
                )
                if not ok:
                    continue
                starts = _least_starts(p, ii, offs, versions)
                if starts is None:
                    continue
                length = max(s + t.latency for s, t in zip(starts, p.tasks))
                if best is None or (nbytes, length) < best:
                    best = (nbytes, length)
        if best is not None:
            return (ii,) + best
    raise AssertionError("no schedule up to max_ii")


# ----- fixtures -------------------------------------------------------------------------


def design_example() -> LoopProblem:
    return LoopProblem(
        tasks=[Task("loadA", pipe="MTE2", latency=40, ii=10), Task("mmad", pipe="M", latency=30, ii=20),
               Task("store", pipe="MTE3", latency=20, ii=10)],
        deps=[Dep(0, 1, latency=40), Dep(1, 0, latency=15, buffer="a"), Dep(1, 2, latency=30)],
        buffers=[Buffer("a", scope="cbuf", size=1000)],
        capacity={"cbuf": 4096}, num_stages=2, conflicts=[(2, 0)])


def double_buffer_loop(num_stages: int = 2, capacity: int = 1 << 20) -> LoopProblem:
    """load -> compute with a write-after-read edge on the load's buffer.

    One version: the cycle load(40) + compute(20) over distance 1 gives II 60;
    two versions halve it to 30, three reach the V pipe bound 20.
    """
    return LoopProblem(
        tasks=[Task("load", "MTE2", 40, 10), Task("compute", "V", 20, 20)],
        deps=[Dep(0, 1, 40), Dep(1, 0, 20, buffer="in")],
        buffers=[Buffer("in", "ub", 1000)],
        capacity={"ub": capacity}, num_stages=num_stages)


def canonical(r) -> dict:
    return {k: getattr(r, k) for k in ("ii", "mii", "res_mii", "rec_mii", "binding", "status", "start",
                                         "stage", "offset", "versions", "length", "buffer_bytes", "message")}


# ----- API and validation ---------------------------------------------------------------


def test_design_example():
    p = design_example()
    r = schedule_loop(p)
    assert_valid(p, r)
    # recurrence loadA -> mmad -> loadA: (40 + 15) / 2 versions -> 28
    assert (r.mii, r.rec_mii, r.binding) == (28, 28, "recurrence")
    assert r.res_mii == {"MTE2": 10, "M": 20, "MTE3": 10}
    assert r.ii == 28 and r.status == "optimal" and r.versions == {"a": 2}
    assert r.stats["bytes_optimal"] and r.stats["length_optimal"]
    assert "solve_ms" in r.stats and "ii_ms" in r.stats and "secondary_ms" in r.stats
    assert r.buffer_bytes == {"a": 2000}


@pytest.mark.parametrize(
    "change, message",
    [
        (dict(deps=[Dep(0, 5, 1)]), "refers to task 5"),
        (dict(deps=[Dep(0, 1, 1, buffer="nope")]), "unknown buffer 'nope'"),
        (dict(tasks=[Task("a", "V", -1, 1), Task("b", "V", 1, 1)]), "negative latency"),
        (dict(tasks=[Task("a", "V", 2, 5), Task("b", "V", 1, 1)]), "latency 2 < ii 5"),
        (dict(tasks=[Task("a", "VEC", 2, 1), Task("b", "V", 1, 1)]), "unknown pipe 'VEC'"),
        (dict(deps=[Dep(0, 1, -3)]), "negative latency"),
        (dict(conflicts=[(0, 7)]), "refers to task 7"),
        (dict(num_stages=0), "num_stages"),
        (dict(tasks=[]), "no tasks"),
    ],
)
def test_validation_errors(change, message):
    base = dict(tasks=[Task("a", "V", 2, 1), Task("b", "V", 1, 1)], deps=[], buffers=[], capacity={})
    base.update(change)
    with pytest.raises(ValueError, match=message):
        schedule_loop(LoopProblem(**base))


def test_unknown_search_mode():
    with pytest.raises(ValueError, match="unknown search"):
        schedule_loop(design_example(), search="random")


def test_infeasible_capacity_is_an_error_naming_scope_and_bytes():
    p = LoopProblem(tasks=[Task("a", "MTE2", 5, 1), Task("b", "V", 5, 1)], deps=[Dep(0, 1, 5)],
                    buffers=[Buffer("x", "ub", 3000), Buffer("y", "ub", 2000), Buffer("z", "cbuf", 10)],
                    capacity={"ub": 4096}, num_stages=2)
    with pytest.raises(SchedulingError, match=r"'ub' needs 5000 bytes .* capacity is 4096"):
        schedule_loop(p)


def test_zero_distance_cycle_is_an_error():
    p = LoopProblem(tasks=[Task("a", "V", 5, 1), Task("b", "V", 5, 1)], deps=[Dep(0, 1, 5), Dep(1, 0, 1)])
    with pytest.raises(SchedulingError, match="distance 0"):
        schedule_loop(p)


# ----- MII ------------------------------------------------------------------------------


def test_mii_resource_bound_per_pipe():
    p = LoopProblem(tasks=[Task("a", "V", 9, 7), Task("b", "V", 9, 5), Task("c", "MTE2", 30, 11),
                           Task("d", ("MTE1", "M"), 8, 4), Task("e", "MTE1", 3, 3)])
    b = compute_mii(p)
    assert b.res_mii == {"V": 12, "MTE2": 11, "MTE1": 7, "M": 4}
    assert (b.mii, b.binding, b.rec_mii) == (12, "V", 0)


def test_mii_conflict_clique_bound():
    # MTE2 and MTE3 share HBM: the clique {a, b, c} needs 8 + 8 + 8 cycles
    p = LoopProblem(tasks=[Task("a", "MTE2", 20, 8), Task("b", "MTE2", 20, 8), Task("c", "MTE3", 20, 8),
                           Task("d", "V", 5, 5)], conflicts=[(0, 2), (1, 2)])
    b = compute_mii(p)
    assert b.res_mii["MTE2"] == 16 and b.conflict_mii == 24
    assert (b.mii, b.binding) == (24, "conflict")
    r = schedule_loop(p)
    assert_valid(p, r)
    assert r.ii == 24 and r.status == "optimal"


def test_mii_recurrence_uses_ceiling_and_max_versions():
    p = LoopProblem(tasks=[Task("a", "V", 7, 1), Task("b", "MTE3", 4, 1), Task("c", "S", 1, 1)],
                    deps=[Dep(0, 1, 7), Dep(1, 0, 4, distance=2), Dep(1, 2, 10), Dep(2, 1, 10, buffer="q")],
                    buffers=[Buffer("q", "ub", 8)], num_stages=3)
    b = compute_mii(p)
    # cycles: (7+4)/2 -> 6 ; (10+10)/3 versions -> 7
    assert (b.rec_mii, b.mii, b.binding) == (7, 7, "recurrence")


# ----- buffers and capacity -------------------------------------------------------------


def test_two_versions_break_the_recurrence():
    p = double_buffer_loop(num_stages=2)
    r = schedule_loop(p)
    assert_valid(p, r)
    assert (r.mii, r.ii, r.versions, r.status) == (30, 30, {"in": 2}, "optimal")


def test_versions_minimised_when_not_needed():
    # with 3 allowed versions II 20 needs all three; at II 20 fewer are impossible
    p = double_buffer_loop(num_stages=3)
    r = schedule_loop(p)
    assert_valid(p, r)
    assert (r.ii, r.versions) == (20, {"in": 3})
    # no recurrence pressure: one version is enough and the byte objective picks it
    q = LoopProblem(tasks=p.tasks, deps=[Dep(0, 1, 10), Dep(1, 0, 1, buffer="in")], buffers=p.buffers,
                    capacity=p.capacity, num_stages=3)
    rq = schedule_loop(q)
    assert_valid(q, rq)
    assert rq.versions == {"in": 1} and rq.stats["bytes_optimal"]


def test_capacity_limits_versions():
    p = double_buffer_loop(num_stages=3, capacity=2500)  # only two versions of 1000 B fit
    r = schedule_loop(p)
    assert_valid(p, r)
    assert r.mii == 20  # RecMII assumes max versions
    assert (r.ii, r.versions, r.status) == (30, {"in": 2}, "optimal")
    assert r.stats["search_lower_bound"] == 30  # capacity-aware recurrence bound
    p1 = double_buffer_loop(num_stages=3, capacity=1500)
    r1 = schedule_loop(p1)
    assert (r1.ii, r1.versions, r1.status) == (60, {"in": 1}, "optimal")


def test_per_buffer_max_versions():
    p = double_buffer_loop(num_stages=4)
    p.buffers = [Buffer("in", "ub", 1000, max_versions=2)]
    r = schedule_loop(p)
    assert (r.mii, r.ii, r.versions) == (30, 30, {"in": 2})


# ----- budgets, determinism, bisect -----------------------------------------------------


def vecadd_like() -> LoopProblem:
    """Two loads, an add, a store; the optimum (72) is above MII (61), so the
    solver must prove II 61..71 infeasible: the heuristic alone cannot."""
    return LoopProblem(
        tasks=[Task("load_x", "MTE2", 111, 21), Task("load_y", "MTE2", 111, 21),
               Task("vadd", "V", 11, 11), Task("store_z", "MTE3", 198, 18)],
        deps=[Dep(0, 2, 111), Dep(1, 2, 111), Dep(2, 3, 11), Dep(2, 0, 11, buffer="x"),
              Dep(2, 1, 11, buffer="y"), Dep(3, 2, 18, buffer="z")],
        buffers=[Buffer("x", "ub", 2048), Buffer("y", "ub", 2048), Buffer("z", "ub", 2048)],
        capacity={"ub": 253952}, num_stages=2, conflicts=[(0, 3), (1, 3)])


def odd_conflict_cycle() -> LoopProblem:
    """Five unit tasks on five pipes, each in conflict with the next (a 5-cycle):
    the clique bound is 2 but the cycle needs 3 slots (circular chromatic number
    5/2), and there are no dependences for the structural bound to use: only
    the solver can prove II 2 infeasible."""
    pipes = ["MTE1", "MTE2", "MTE3", "M", "V"]
    return LoopProblem(tasks=[Task(f"t{i}", pipes[i], 1, 1) for i in range(5)],
                       conflicts=[(i, (i + 1) % 5) for i in range(5)])


def test_structural_bound_refutes_resource_recurrence_interaction():
    p = vecadd_like()
    r = schedule_loop(p)
    assert (r.mii, r.ii, r.status) == (61, 72, "optimal")
    # both loads must sit one latency before vadd, one MTE2 slot apart: the
    # separations refute 61..71 without a solver call
    assert r.stats["refuted"] == list(range(61, 72))
    assert r.stats["search_lower_bound"] == 72 and r.stats["probes"] == []


def test_budget_exhaustion_returns_heuristic_and_says_so():
    p = odd_conflict_cycle()
    full = schedule_loop(p)
    assert (full.mii, full.ii, full.status) == (2, 3, "optimal")
    assert full.stats["probes"][0] == (2, "unsat")
    r = schedule_loop(p, rlimit=1)
    assert_valid(p, r)
    assert r.status == "heuristic"
    assert r.stats["budget_exhausted"] is True
    assert "budget" in r.message
    assert r.ii >= full.ii


def test_heuristic_at_lower_bound_needs_no_probe_and_budget_is_reported():
    p = vecadd_like()
    r = schedule_loop(p, rlimit=1)
    assert_valid(p, r)
    # II meets the structural bound, so it is optimal without a probe; the
    # schedule length needs the solver, whose budget is gone
    assert (r.ii, r.status, r.stats["probes"]) == (72, "optimal", [])
    assert r.stats["schedule_from"] == "heuristic"
    assert r.stats["budget_exhausted"] is True
    assert r.stats["length_optimal"] is False
    assert "not proven minimal (budget)" in r.message
    # a schedule that meets every bound needs no solver at all
    q = double_buffer_loop(num_stages=2)
    rq = schedule_loop(q, rlimit=1)
    assert (rq.ii, rq.status, rq.stats["z3_checks"], rq.stats["budget_exhausted"]) == (30, "optimal", 0, False)


def test_time_budget_zero_never_reads_unknown_as_infeasible():
    p = odd_conflict_cycle()
    r = schedule_loop(p, time_ms=0)
    assert_valid(p, r)
    assert r.status in ("heuristic", "feasible")
    assert "budget" in r.message
    # an unknown probe is never taken as "infeasible": II does not drop below the optimum
    assert r.ii >= 3


def test_deterministic_in_process():
    p = design_example()
    assert canonical(schedule_loop(p)) == canonical(schedule_loop(p))


_DETERMINISM_SCRIPT = """
import json, sys
sys.path.insert(0, {bench!r})
from problems import generated_loop
from ascend_mlir.scheduling import schedule_loop
r = schedule_loop(generated_loop(12, 3))
print(json.dumps([r.ii, r.status, r.start, r.versions, r.length, r.stats["probes"]]))
"""


def test_deterministic_across_processes_and_hash_seeds():
    bench = os.path.join(os.path.dirname(__file__), "..", "..", "bench", "scheduler")
    script = _DETERMINISM_SCRIPT.format(bench=os.path.abspath(bench))
    outs = []
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
        outs.append(json.loads(out.stdout))
    assert outs[0] == outs[1]


@pytest.mark.parametrize("rlimit", [None, 200_000])
def test_a_resumed_solve_is_the_solve_with_its_secondary_objectives(rlimit):
    """schedule_loop(resume=...) gives, from one II search, the result without the bytes
    and length optimised and then the one with them: each as its own solve gives it
    (the pass keeps a large loop's plain schedule so, and used to solve it twice)."""
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench", "scheduler"))
    from problems import generated_loop

    budget = {} if rlimit is None else {"rlimit": rlimit}
    for p in (odd_conflict_cycle(), design_example(), generated_loop(12, 3), generated_loop(30, 5)):
        resume: list = []
        first = schedule_loop(p, optimize_secondary=False, resume=resume, **budget)
        alone = schedule_loop(p, optimize_secondary=False, **budget)
        assert canonical(first) == canonical(alone) and first.stats["bytes_optimal"] is None
        resumed, whole = resume[0](), schedule_loop(p, **budget)
        assert canonical(resumed) == canonical(whole)
        for key in ("probes", "check_log", "z3_checks", "rlimit_used", "bytes_optimal", "length_optimal"):
            assert resumed.stats[key] == whole.stats[key], key
        # the first result is not changed by going on from it
        assert canonical(first) == canonical(alone) and first.stats["bytes_optimal"] is None


def test_the_first_unknown_probe_ends_the_search_and_the_full_ims_search_follows():
    """A probe that cannot answer within its share of the budget ends the II search (the
    probes after one answered in 1 of 139 unseen solves that had one, and spent 30% of
    all rlimit); where the schedule in hand was the sequential one, the full IMS search
    then runs even though the side probe found a schedule just below it."""
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench", "scheduler"))
    from problems import generated_loop

    p = generated_loop(30, 5)
    r = schedule_loop(p, rlimit=200_000)
    assert_valid(p, r)
    log = r.stats["check_log"]
    assert [res for what, res in log if what.startswith("ii=") and "own solver" not in what] == ["unknown"]
    side = [int(what.split()[0][3:]) for what, res in log if what.endswith("(own solver)") and res == "sat"]
    assert side and r.stats["heuristic"] == "iterative modulo scheduling" and r.ii < side[0]
    assert r.status == "heuristic" and "budget" in r.message


def test_bisect_mode_agrees_on_ii_and_reports_status():
    for p in (design_example(), double_buffer_loop(2), double_buffer_loop(3, capacity=2500), vecadd_like()):
        a = schedule_loop(p)
        b = schedule_loop(p, search="bisect")
        assert_valid(p, b)
        assert a.ii == b.ii
        assert b.stats["search"] == "bisect" and b.status in ("optimal", "feasible")
        # bisection probes from max(ii), incremental search from MII
        assert len(b.stats["probes"]) > len(a.stats["probes"])


def test_bisect_fallback_is_reported():
    # dependence latency far above the task latencies: the anchor's upper bound
    # max(sum latency, sum ii) + 1 is too small, it falls back to sequential
    p = LoopProblem(tasks=[Task("a", "V", 2, 1), Task("b", "V", 2, 1)],
                    deps=[Dep(0, 1, 50), Dep(1, 0, 50, distance=1)])
    b = schedule_loop(p, search="bisect")
    assert_valid(p, b)
    assert b.status == "fallback" and "fallback" in b.message
    a = schedule_loop(p)
    assert (a.ii, a.status) == (100, "optimal")


# ----- optimality against brute force ---------------------------------------------------


def test_optimal_against_brute_force_examples():
    cases = [
        double_buffer_loop(2),
        LoopProblem(tasks=[Task("a", "MTE2", 4, 2), Task("b", "MTE2", 3, 3), Task("c", "V", 2, 2)],
                    deps=[Dep(0, 2, 4), Dep(1, 2, 3), Dep(2, 0, 1, buffer="x")],
                    buffers=[Buffer("x", "ub", 10)], num_stages=2, conflicts=[(1, 2)]),
        LoopProblem(tasks=[Task("a", "V", 3, 3), Task("b", "V", 2, 2), Task("c", "M", 6, 1)],
                    deps=[Dep(0, 1, 3), Dep(1, 2, 2), Dep(2, 0, 6, distance=2)]),
    ]
    for p in cases:
        for heuristic in (True, False):
            r = schedule_loop(p, heuristic=heuristic)
            assert_valid(p, r)
            assert r.status == "optimal"
            assert (r.ii, sum(r.buffer_bytes.values()), r.length) == brute_force(p)


_PIPES = ["MTE2", "V", "MTE3"]


@st.composite
def tiny_loops(draw):
    n = draw(st.integers(2, 3))
    tasks = []
    for i in range(n):
        ii = draw(st.integers(1, 3))
        tasks.append(Task(f"t{i}", draw(st.sampled_from(_PIPES)), ii + draw(st.integers(0, 4)), ii))
    nbuf = draw(st.integers(0, 2))
    buffers = [Buffer(f"b{j}", "ub", draw(st.sampled_from([8, 16, 24]))) for j in range(nbuf)]
    deps = []
    for _ in range(draw(st.integers(0, 4))):
        u, v = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        lat = draw(st.integers(0, 6))
        if u < v:
            deps.append(Dep(u, v, lat))
        elif buffers and draw(st.booleans()):
            deps.append(Dep(u, v, lat, buffer=draw(st.sampled_from([b.name for b in buffers]))))
        else:
            deps.append(Dep(u, v, lat, distance=draw(st.integers(1, 2))))
    cap = draw(st.sampled_from([None, 40, 64]))
    capacity = {} if cap is None else {"ub": max(cap, sum(b.size for b in buffers))}
    conflicts = [(0, n - 1)] if draw(st.booleans()) else []
    return LoopProblem(tasks, deps, buffers, capacity, draw(st.integers(1, 3)), conflicts)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_loops())
def test_random_tiny_loops_are_valid_and_optimal(p):
    r = schedule_loop(p)
    assert_valid(p, r)
    assert r.status == "optimal"
    ii, nbytes, length = brute_force(p)
    assert r.ii == ii
    assert sum(r.buffer_bytes.values()) == nbytes
    assert r.length == length
    s = schedule_loop(p, heuristic=False)  # the solver's own II search
    assert_valid(p, s)
    assert (s.status, s.ii, sum(s.buffer_bytes.values()), s.length) == ("optimal", ii, nbytes, length)
    b = schedule_loop(p, search="bisect")
    assert_valid(p, b)
    if b.status != "fallback":
        assert b.ii == r.ii


# ----- straight-line regions ------------------------------------------------------------


def test_region_minimises_makespan():
    tasks = [Task("ld1", "MTE2", 10, 4), Task("ld2", "MTE2", 10, 4), Task("add", "V", 3, 3), Task("st", "MTE3", 8, 2)]
    deps = [Dep(0, 2, 10), Dep(1, 2, 10), Dep(2, 3, 3)]
    r = schedule_region(tasks, deps, conflicts=[(0, 3)])
    assert r.status == "optimal"
    # ld1 at 0, ld2 at 4 (same pipe), add at 14, st at 17 -> 25
    assert r.makespan == 25
    for d in deps:
        assert r.start[d.dst] - r.start[d.src] >= d.latency
    assert abs(r.start[0] - r.start[1]) >= 4


def test_region_rejects_loop_carried_dependences():
    with pytest.raises(ValueError, match="loop-carried"):
        schedule_region([Task("a", "V", 1, 1)], [Dep(0, 0, 1, distance=1)])


def test_region_budget_exhaustion_keeps_list_schedule():
    # the list schedule puts the long V op first (index order): makespan 31;
    # issuing b first lets the store start at 1: makespan 21
    tasks = [Task("a", "V", 10, 10), Task("b", "V", 1, 1), Task("st", "MTE3", 20, 1)]
    deps = [Dep(1, 2, 1)]
    r = schedule_region(tasks, deps, rlimit=1)
    assert r.makespan == 31
    assert r.status == "feasible" and "budget" in r.message
    for d in deps:
        assert r.start[d.dst] - r.start[d.src] >= d.latency
    best = schedule_region(tasks, deps)
    assert (best.status, best.makespan) == ("optimal", 21)


def test_multi_pipe_task_conflicts_with_each_pipe():
    # mmad occupies MTE1 and M: it may overlap neither the MTE1 load nor the other M op
    p = LoopProblem(tasks=[Task("mmad", ("MTE1", "M"), 10, 6), Task("l0a", "MTE1", 5, 5), Task("m2", "M", 4, 4)])
    b = compute_mii(p)
    assert b.res_mii == {"MTE1": 11, "M": 10} and b.mii == 11
    r = schedule_loop(p)
    assert_valid(p, r)
    assert r.ii == 11


def test_region_pipe_bound_proves_list_schedule_without_solver():
    # three independent V ops: the pipe issues them back to back (0, 4, 8), the last
    # ends at 13 = earliest start + 3 * ii + shortest tail: proven without a solver
    tasks = [Task(f"v{i}", "V", 5, 4) for i in range(3)]
    r = schedule_region(tasks)
    assert (r.makespan, r.status, r.stats["z3_checks"], r.stats["lower_bound"]) == (13, "optimal", 0, 13)


def test_very_large_loops_skip_the_secondary_solver(monkeypatch):
    from ascend_mlir.scheduling import modulo

    monkeypatch.setattr(modulo, "SECONDARY_MAX_PAIRS", 0)
    p = vecadd_like()
    r = schedule_loop(p)
    assert_valid(p, r)
    assert (r.ii, r.status) == (72, "optimal")
    assert r.stats["secondary_skipped"] and r.stats["length_optimal"] is False
    assert not any(what.startswith("length") for what, _ in r.stats["check_log"])
    assert "schedule length not proven minimal" in r.message


def _ims_fails_at_the_bound(monkeypatch, modulo):
    """The one IMS attempt at the lower bound fails (as on 8 chains of 16 ops); the
    calls of first-fit IMS are recorded as (ii, budget factor)."""
    calls: list[tuple[int, int]] = []
    real = modulo.iterative_modulo_schedule

    def recorded(p, ii, versions, budget_factor=6, best_fit=False):
        if not best_fit:
            calls.append((ii, budget_factor))
        return real(p, ii, versions, budget_factor, best_fit=best_fit)

    def fails(p, ii, choices, factor, recurrences):
        for versions in choices:  # its first-fit attempts, each failing here
            recorded(p, ii, versions, factor)
        calls.append((-1, -1))  # the end of the attempt at the bound
        return None

    monkeypatch.setattr(modulo, "iterative_modulo_schedule", recorded)
    monkeypatch.setattr(modulo, "_ims_attempt", fails)
    return calls


def test_very_large_loops_take_the_ims_schedule_without_a_solver_call(monkeypatch):
    from ascend_mlir.scheduling import modulo

    calls = _ims_fails_at_the_bound(monkeypatch, modulo)
    p = vecadd_like()
    assert schedule_loop(p, optimize_secondary=False).stats["z3_checks"] > 0  # below the limit: the solver
    monkeypatch.setattr(modulo, "SOLVER_MAX_PAIRS", 0)
    calls.clear()
    r = schedule_loop(p, optimize_secondary=False)
    assert_valid(p, r)
    assert (r.status, r.stats["z3_checks"], r.stats["rlimit_used"]) == ("heuristic", 0, 0)
    assert r.stats["heuristic"] == "iterative modulo scheduling" and r.ii > r.stats["search_lower_bound"]
    assert "no solver call on a loop of" in r.message and "not proven minimal" in r.message
    # the attempt at the bound that failed in the search is not repeated by the full IMS
    lo = r.stats["search_lower_bound"]
    after = calls[calls.index((-1, -1)) + 1:]
    assert calls[0] == (lo, modulo.IMS_BUDGET) and after and all(ii > lo for ii, _ in after)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 40), st.data())
def test_arcs_disjoint_each_is_arcs_disjoint_element_by_element(ii, data):
    """IMS's vectorised evictions (`_evict_vectorised`) ask `arcs_disjoint_each` over
    arrays of conflicts; each element is what the scalar `arcs_disjoint` says."""
    import numpy as np

    from ascend_mlir.scheduling.bounds import arcs_disjoint, arcs_disjoint_each

    r = data.draw(st.integers(0, ii - 1))
    # per conflict: its start, how long the placed task's arc keeps it out, its own arc
    arcs = data.draw(st.lists(st.tuples(st.integers(0, ii - 1), st.integers(1, ii), st.integers(1, ii)),
                              min_size=1, max_size=12))
    starts, lengths, others = (np.array(column, dtype=np.int64) for column in zip(*arcs))
    each = arcs_disjoint_each(r, lengths, starts, others, ii)
    assert each.tolist() == [arcs_disjoint(r, length, start, other, ii) for start, length, other in arcs]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 40), st.integers(1, 12), st.integers(-50, 50),
       st.lists(st.tuples(st.integers(0, 200), st.integers(1, 12)), max_size=8))
def test_ims_free_slot_is_the_first_free_time(ii, length, estart, placed):
    """The sweep of ims.free_slot answers what trying every time of [estart, estart + II)
    in order answers: the first whose arc misses every placed conflicting arc."""
    from ascend_mlir.scheduling.ims import _Placement, arcs_disjoint

    placed = [(s, min(occ, ii)) for s, occ in placed]
    length = min(length, ii)
    tasks = [Task("op", "V", length, length)] + [Task(f"t{j}", "V", occ, occ) for j, (_, occ) in enumerate(placed)]
    p = LoopProblem(tasks)
    conflicts = [[(j, length, occ) for j, (_, occ) in enumerate(placed, start=1)]]
    conflicts += [[(0, occ, length)] for _, occ in placed]
    state = _Placement(p, ii, [[] for _ in tasks], [[] for _ in tasks], conflicts)
    for j, (s, _) in enumerate(placed, start=1):
        state.start[j] = s
    free = [t for t in range(estart, estart + ii)
            if all(arcs_disjoint(t % ii, length, s % ii, occ, ii) for s, occ in placed)]
    assert state.free_slot(0, estart) == (free[0] if free else None)
    # best fit: a free time that starts a run of free times (in the window from
    # estart) as short as any other run's
    state.best_fit = True
    chosen = state.free_slot(0, estart)
    if not free:
        assert chosen is None
        return
    runs: list[list[int]] = []
    for t in free:
        if runs and runs[-1][-1] == t - 1:
            runs[-1].append(t)
        else:
            runs.append([t])
    assert chosen in [r[0] for r in runs]
    if placed:
        assert len(next(r for r in runs if r[0] == chosen)) == min(map(len, runs))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-20, 20), min_size=1, max_size=12), st.lists(st.integers(0, 11), max_size=30))
def test_ims_next_task_is_the_highest_unscheduled(height, evictions):
    """IMS's priority queue names the task `max(unscheduled, key=(height, -index))`
    names, through placements and evictions (re-queued tasks, stale entries)."""
    from ascend_mlir.scheduling.ims import _Placement

    n = len(height)
    p = LoopProblem([Task(f"t{i}", "V", 1, 1) for i in range(n)])
    state = _Placement(p, 4, [[] for _ in range(n)], [[] for _ in range(n)], [[] for _ in range(n)])
    state.prioritise(height)
    for e in evictions:
        if state.unscheduled:
            op = state.next_task()
            assert op == max(state.unscheduled, key=lambda i: (height[i], -i))
            state.start[op] = 0
            state.unscheduled.discard(op)
        if e < n and state.start[e] is not None:
            state.unschedule(e)
    while state.unscheduled:
        op = state.next_task()
        assert op == max(state.unscheduled, key=lambda i: (height[i], -i))
        state.unscheduled.discard(op)


def _copies(p: LoopProblem, k: int, shared: bool, lopsided: bool) -> LoopProblem:
    """k disjoint copies of p (own buffers), optionally one extra task that every copy's
    first task conflicts with (keeps the copies interchangeable) and a conflict of
    copy 0 alone (makes them not interchangeable)."""
    n = len(p.tasks)
    tasks = [Task(f"{t.name}.{c}", t.pipe, t.latency, t.ii) for c in range(k) for t in p.tasks]
    deps = [Dep(d.src + c * n, d.dst + c * n, d.latency, d.distance, None if d.buffer is None else f"{d.buffer}.{c}")
            for c in range(k) for d in p.deps]
    buffers = [Buffer(f"{b.name}.{c}", b.scope, b.size) for c in range(k) for b in p.buffers]
    capacity = {s: v * k for s, v in p.capacity.items()}
    conflicts = [(i + c * n, j + c * n) for c in range(k) for i, j in p.conflicts]
    if shared:
        tasks.append(Task("shared", "S", 2, 2))
        conflicts += [(c * n, k * n) for c in range(k)]
    if lopsided:
        conflicts.append((0, n + n - 1) if n > 1 else (0, n))
    return LoopProblem(tasks, deps, buffers, capacity, p.num_stages, conflicts)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_loops(), st.integers(2, 3), st.booleans(), st.booleans())
def test_interchangeable_components_keep_the_optimum(p, k, shared, lopsided):
    """Ordering interchangeable components in the window loses no schedule: the
    solver's own search (no heuristic) proves the same II and bytes with and
    without that symmetry breaking."""
    from ascend_mlir.scheduling import modulo, structure

    q = _copies(p, k, shared, lopsided)
    with_order = schedule_loop(q, heuristic=False)
    assert_valid(q, with_order)
    original = structure.analyse
    def without(problem):
        s = original(problem)
        s.component_order = []
        return s
    modulo.analyse = without
    try:
        plain = schedule_loop(q, heuristic=False)
    finally:
        modulo.analyse = original
    assert (with_order.status, plain.status) == ("optimal", "optimal")
    assert with_order.ii == plain.ii
    assert sum(with_order.buffer_bytes.values()) == sum(plain.buffer_bytes.values())


def test_identical_chains_are_ordered_and_a_lopsided_conflict_breaks_it():
    chain = LoopProblem([Task("ld", "MTE2", 20, 5), Task("v", "V", 6, 6), Task("st", "MTE3", 20, 4)],
                        [Dep(0, 1, 20), Dep(1, 2, 6), Dep(1, 0, 6, buffer="a"), Dep(2, 1, 4, buffer="b")],
                        [Buffer("a", "ub", 8), Buffer("b", "ub", 8)], {"ub": 32}, 2)
    from ascend_mlir.scheduling.structure import analyse

    # the representative is the pinned task's position (v, the largest ii)
    assert analyse(_copies(chain, 3, shared=True, lopsided=False)).component_order == [(1, 4), (4, 7)]
    # copy 0's load conflicts with copy 1's store only: no swap maps that onto a conflict
    assert analyse(_copies(chain, 3, shared=False, lopsided=True)).component_order == []


def _saturated_chains(k: int) -> LoopProblem:
    """k identical load -> three vector ops -> store chains whose vector ops fill the
    window exactly at the bound (sum of V ii = MII)."""
    tasks, deps, buffers = [], [], []
    for c in range(k):
        base = len(tasks)
        tasks += [Task(f"ld{c}", "MTE2", 90, 6), Task(f"a{c}", "V", 7, 7), Task(f"b{c}", "V", 5, 5),
                  Task(f"e{c}", "V", 30, 30), Task(f"st{c}", "MTE3", 120, 8)]
        deps += [Dep(base, base + 1, 90), Dep(base + 1, base + 2, 7), Dep(base + 2, base + 3, 5),
                 Dep(base + 3, base + 4, 30), Dep(base + 1, base, 7, buffer=f"x{c}"),
                 Dep(base + 4, base + 3, 8, buffer=f"y{c}")]
        buffers += [Buffer(f"x{c}", "ub", 1024), Buffer(f"y{c}", "ub", 1024)]
    return LoopProblem(tasks, deps, buffers, {"ub": 4 * 1024 * k}, 2)


def test_list_schedule_packs_a_saturated_pipe():
    from ascend_mlir.scheduling.ims import list_modulo_schedule

    p = _saturated_chains(12)
    mii = compute_mii(p).mii
    assert mii == 12 * 42  # the vector pipe, saturated
    versions = {b.name: 2 for b in p.buffers}
    start = list_modulo_schedule(p, mii, versions)
    assert start is not None
    assert not check_schedule(p, mii, start, versions)
    # the vector ops sit back to back: the window holds no idle vector cycle
    busy = sorted((start[i] % mii, p.tasks[i].ii) for i in range(len(p.tasks)) if p.tasks[i].pipe == "V")
    assert sum(w for _, w in busy) == mii
    assert all((a + w) % mii == b for (a, w), (b, _) in zip(busy, busy[1:] + busy[:1], strict=True))


def test_a_carried_dependence_may_have_a_negative_latency():
    """A nested K loop whose first matmul issues 1502 cycles after it, waiting for the
    previous tile's fixpipe read (712 cycles): the next loop may issue 790 cycles before
    that read is over. The II is the recurrence 6056 - 790; at distance 0 a negative
    latency is still refused."""
    tasks = [Task("k_loop", ("MTE2", "M"), 6056, 4506), Task("fixpipe", "FIX", 712, 514)]
    problem = LoopProblem(tasks, [Dep(0, 1, 6056), Dep(1, 0, -790, distance=1)])
    result = schedule_loop(problem)
    assert (result.ii, result.rec_mii, result.status) == (5266, 5266, "optimal")
    assert check_schedule(problem, result.ii, result.start, result.versions) == []
    with pytest.raises(ValueError, match="negative latency"):
        LoopProblem(tasks, [Dep(0, 1, 6056), Dep(1, 0, -790)]).validate()


def test_a_check_with_no_time_budget_still_has_a_wall_clock_backstop(monkeypatch):
    """The rlimit bounds a check and keeps results reproducible, but z3 does not count it
    everywhere (random kernel 757 on four_ids.toml: one check ran for minutes). Without a
    time budget each check gets smt_encoding.BACKSTOP_MS; one that runs into it says
    unknown, which ends the loop's search like an exhausted rlimit."""
    import z3

    from ascend_mlir.scheduling import smt_encoding

    timeouts: list[int] = []
    real_set = z3.Solver.set

    def recording_set(self, *args, **kwargs):
        if args and args[0] == "timeout":
            timeouts.append(args[1])
        return real_set(self, *args, **kwargs)

    monkeypatch.setattr(z3.Solver, "set", recording_set)
    monkeypatch.setattr(z3.Solver, "check", lambda self, *assumptions: z3.unknown)
    monkeypatch.setattr(z3.Solver, "reason_unknown", lambda self: "timeout")
    p = odd_conflict_cycle()
    r = schedule_loop(p, rlimit=None, time_ms=None)
    assert timeouts and set(timeouts) == {smt_encoding.BACKSTOP_MS}
    assert_valid(p, r)
    assert r.status == "heuristic" and r.stats["budget_exhausted"] is True
    assert r.ii >= 3


@settings(max_examples=300, deadline=None)
@given(ii=st.integers(1, 40), lo=st.integers(-200, 200), width=st.integers(-30, 300),
       ii_i=st.integers(0, 80), ii_j=st.integers(0, 80))
def test_wrap_counts_are_the_slots_that_meet_the_window(ii, lo, width, ii_i, ii_j):
    """`wrap_counts` in closed form gives what its definition gives: each m whose slot
    [m II + ii_i, (m + 1) II - ii_j] shares a cycle with [lo, hi], found cycle by cycle."""
    from ascend_mlir.scheduling.structure import wrap_counts

    hi = lo + width
    by_cycle = sorted({m for x in range(lo, hi + 1) for m in range((x - ii_i) // ii - 1, (x + ii_j) // ii + 2)
                       if m * ii + ii_i <= x <= (m + 1) * ii - ii_j})
    assert wrap_counts(lo, hi, ii, ii_i, ii_j) == by_cycle


def test_a_probe_of_a_loop_of_many_resource_pairs_gets_a_smaller_budget(tmp_path, monkeypatch):
    """Above LARGE_PROBE_PAIRS resource pairs a probe of the II search gets at most
    `probe_cap(pairs)`: bench/scheduler's ring of 72 ops (74 tasks, 1296 pairs) probed
    its bound with 60% of the default budget, 29.8M, for 8.9 s CPU and an unknown, where
    IMS's schedule 0.5% above the bound is what it keeps either way. The cap is taken a
    tenth of its size here (the probe runs to it: 6 s CPU at the real one, 9.3M)."""
    from pathlib import Path

    from ascend_mlir.scheduling import modulo
    from ascend_mlir.scheduling.modulo import LARGE_PROBE_PAIRS, SIDE_PROBE_RLIMIT, probe_cap

    monkeypatch.setattr(modulo, "LARGE_PROBE_RLIMIT_PAIRS", modulo.LARGE_PROBE_RLIMIT_PAIRS // 10)

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "scheduler"))
    from mlir_problems import loop_problems_of_file
    from pass_scaling import chain_kernel

    kernel = tmp_path / "ring72.mlir"
    kernel.write_text(chain_kernel(72), encoding="utf-8")
    (_, p), = loop_problems_of_file(str(kernel))
    pairs = len(p.resource_pairs())
    assert pairs > LARGE_PROBE_PAIRS and probe_cap(pairs) < 1_000_000
    result = schedule_loop(p, optimize_secondary=False)
    probes = result.stats["probes"]
    assert (result.mii, "unknown") in probes  # the bound was probed, and gave up
    assert result.stats["rlimit_used"] <= SIDE_PROBE_RLIMIT + probe_cap(pairs) * len(probes)
    assert result.ii <= result.mii * 1.01 and not check_schedule(p, result.ii, result.start, result.versions)
