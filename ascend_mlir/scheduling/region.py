"""Makespan scheduling of a straight-line region (code outside loops).

Constraints: start_v - start_u >= latency for every dependence; tasks sharing a
pipe (or listed in `conflicts`) do not overlap: s_j >= s_i + ii_i or
s_i >= s_j + ii_j.  Objective: minimal makespan max(start + latency).
A list schedule gives the upper bound; Z3 bisects the makespan down to the
lower bound (longest dependence path), each step under the shared budget.
"""

from __future__ import annotations

import time
from typing import cast
from typing import Any, Sequence

import z3

from .bounds import length_lower_bound, pipe_length_bound, sequential_schedule
from .modulo import DEFAULT_RLIMIT, _Budget
from .smt_encoding import model_int
from .problem import Dep, LoopProblem, RegionResult, Task


def _region_problem(tasks: Sequence[Task], deps: Sequence[Dep], conflicts: Sequence[tuple[int, int]]) -> LoopProblem:
    p = LoopProblem(tasks=list(tasks), deps=list(deps), conflicts=list(conflicts))
    p.validate()
    for e, d in enumerate(deps):
        if d.distance != 0 or d.buffer is not None:
            raise ValueError(
                f"dependence {e} ({d.src} -> {d.dst}) of a straight-line region has a loop-carried "
                f"distance; regions take distance-0 dependences only"
            )
    return p


def schedule_region(
    tasks: Sequence[Task],
    deps: Sequence[Dep] = (),
    conflicts: Sequence[tuple[int, int]] = (),
    *,
    time_ms: int | None = None,
    rlimit: int | None = DEFAULT_RLIMIT,
    seed: int = 0,
) -> RegionResult:
    t0 = time.perf_counter()
    p = _region_problem(tasks, deps, conflicts)
    from .bounds import check_zero_distance_cycles

    check_zero_distance_cycles(p)
    n = len(p.tasks)
    _, list_start = sequential_schedule(p)
    best = list(list_start)

    def makespan(start: list[int]) -> int:
        return max(s + t.latency for s, t in zip(start, p.tasks, strict=False))

    lo, hi = max(length_lower_bound(p), pipe_length_bound(p)), makespan(best)
    stats: dict[str, Any] = {"list_makespan": hi, "lower_bound": lo}
    if lo >= hi:  # the list schedule meets the bound: no solver at all
        stats.update(probes=[], z3_checks=0, solve_ms=round((time.perf_counter() - t0) * 1000, 3))
        return RegionResult(start=best, makespan=hi, status="optimal",
                            message=f"makespan {hi} proven minimal", stats=stats)
    ctx = z3.Context()
    solver = z3.SolverFor("QF_LIA", ctx=ctx)
    solver.set("random_seed", seed)
    s = [z3.Int(f"s_{i}", ctx) for i in range(n)]
    span = z3.Int("makespan", ctx)
    for i, t in enumerate(p.tasks):
        solver.add(s[i] >= 0, span >= s[i] + t.latency)
    def gap(later: int, earlier: int) -> z3.ArithRef:
        # z3's stubs type a difference as any expression; it is an integer term here
        return cast(z3.ArithRef, s[later] - s[earlier])

    for d in p.deps:
        solver.add(gap(d.dst, d.src) >= d.latency)
    for i, j in p.resource_pairs():
        solver.add(z3.Or(gap(j, i) >= p.tasks[i].ii, gap(i, j) >= p.tasks[j].ii))
    solver.add(span <= hi)
    budget = _Budget(rlimit, time_ms)
    checks = 0
    proven = True
    probes = []
    while lo < hi:
        if budget.spent():
            proven = False
            break
        mid = (lo + hi) // 2
        lit = z3.Bool(f"span_le_{mid}", ctx)
        solver.add(z3.Implies(lit, span <= mid))
        solver.set("rlimit", 0 if budget.rlimit is None else budget.rlimit)
        ms = budget.remaining_ms()
        solver.set("timeout", 0 if ms is None else max(1, ms))
        res = solver.check(lit)
        checks += 1
        probes.append((mid, str(res)))
        st = solver.statistics()
        used = int(st.get_key_value("rlimit count")) if "rlimit count" in st.keys() else 0
        if budget.rlimit is not None:
            budget.rlimit = (rlimit or 0) - used  # statistic is cumulative for this solver
        if res == z3.sat:
            m = solver.model()
            best = [model_int(m, v) for v in s]
            hi = makespan(best)
        elif res == z3.unsat:
            lo = mid + 1
        else:
            proven = False
            break
    status = "optimal" if proven else "feasible"
    message = (f"makespan {makespan(best)} proven minimal" if proven
               else f"budget exhausted: makespan {makespan(best)}, lower bound {lo}")
    stats.update(probes=probes, z3_checks=checks, solve_ms=round((time.perf_counter() - t0) * 1000, 3))
    return RegionResult(start=best, makespan=makespan(best), status=status, message=message, stats=stats)
