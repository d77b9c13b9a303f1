"""Z3 modulo scheduler: minimal II, then fewest buffer bytes, then shortest length.

Model for a fixed II (all linear, integer):
  k_i >= 0, 0 <= r_i < II, start_i = II*k_i + r_i, 1 <= buf_j <= max versions
  dependence u -> v:   start_v - start_u >= lat - II*dist      (dist = const or buf_j + const)
  resource pair i, j:  o_ij  -> r_j - r_i >= ii_i and r_i - r_j + II >= ii_j
                       !o_ij -> r_i - r_j >= ii_j and r_j - r_i + II >= ii_i
  capacity per scope:  sum buf_j * size_j <= capacity

Search (default, "incremental"):
  1. lower bound: MII = max(ResMII per pipe, conflict cliques, RecMII at the
     maximum versions), raised by the structural bound (structure.py): at each
     II from MII upward, the all-pairs separations of the dependences inside
     strongly connected components, tightened by the modulo windows of the
     resource pairs inside them (to a fixpoint), and the least versions those
     separations force against the capacity; any contradiction refutes the II
     without a solver call;
  2. one iterative-modulo-scheduling attempt (ims.py) at the bound: if it
     succeeds, II is proven minimal with no solver call;
  3. otherwise a probe just below the schedule in hand (IMS's or the sequential
     one: unsat there proves it minimal in one check), in a solver of its own
     with a small rlimit (SIDE_PROBE_RLIMIT), then one solver in a private
     context (created on first use) probes II upward from the bound (lo,
     +1, +3, +7, ... then bisection in the last gap; feasibility is monotone in
     II, so an unsat probe excludes every smaller II).
     A probe carries only what decides feasibility: the dependences inside
     components (those between components can always be met by shifting whole
     components by multiples of II), the resource pairs (linear when the
     separations leave one wrap count), separation bounds, and symmetry
     breaking (one offset at 0, each component's root at stage 0,
     interchangeable tasks in index order).  Constraints that do not mention II
     are asserted once; the others per probed II under guard literals passed as
     assumptions, so the solver and its learnt lemmas are reused.  Each probe may
     use at most `probe_share` of the remaining budget (a loop of more than
     LARGE_PROBE_PAIRS resource pairs less: `probe_cap`); `unknown` is never read
     as infeasible: it ends the search (optimality stays unproven; the probes
     after one seldom answer, see `search`); when the solver finds nothing, or
     stops so above the sequential schedule in hand, the full IMS search gives
     the schedule where it is better;
  4. at the final II: fewest buffer bytes, then shortest length, each compared
     with its lower bound first (no solver call when met), under their own small
     budget (`secondary_rlimit`); see _optimise_secondary.
"optimal" means every II below the result is infeasible (bound or proof).

search="bisect" reproduces the anchor (TileLang): bisection of II between
max(ii) and max(sum latency, sum ii) + 1, a fresh solver per probe, rlimit 1e6
per probe, `unknown` counted as infeasible, sequential fallback if nothing is
found; the result reports that honestly (status "fallback" / "feasible").
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, replace
from typing import Any, Callable

import z3

from .bounds import (
    MiiBounds,
    check_schedule,
    check_zero_distance_cycles,
    compute_mii,
    length_lower_bound,
    max_versions,
    pipe_length_bound,
    rec_mii,
    sequential_schedule,
)
from .budget import Budget as _Budget
from .packing import packed_schedule
from .ims import fit_versions, iterative_modulo_schedule, list_modulo_schedule
from .implied import without_implied
from .structure import Windows, analyse, length_bound, propagate
from .smt_encoding import _Encoder, _Model, polish
from .problem import LoopProblem, LoopResult, SchedulingError

DEFAULT_RLIMIT = 50_000_000
# how many IIs above the other bounds the structural propagation may refute
STRUCTURAL_SCAN = 64
# evictions per task of the one IMS attempt at the lower bound (cheap even when it
# fails: ~0.1 s at 64 tasks; when it succeeds, no solver call at all)
IMS_BUDGET = 60
# the secondary objectives (bytes, then length) have their own small budget
SECONDARY_RLIMIT = 2_000_000
# above this many resource pairs the secondary objectives get no solver at all
SECONDARY_MAX_PAIRS = 2000
# above this many resource pairs the II gets no solver call either: IMS's schedule is
# kept. 8 chains of 16 ops (130 tasks, 8000 pairs) answered unknown on every probe
# from the bound up to the sequential II for the whole DEFAULT_RLIMIT (80 CPU s,
# 530 MB of z3 model) and then took IMS's II anyway; 4 chains of 16 (1576 pairs)
# still get their optimum from the packed probe
SOLVER_MAX_PAIRS = 2000
# above LARGE_PROBE_PAIRS resource pairs a probe of the II search gets at most
# LARGE_PROBE_RLIMIT_PAIRS / pairs rlimit, about 3 s of CPU at any size: a rlimit unit
# costs time in proportion to the pairs (0.28 us at 1129, 0.58 at 1936). Rings of 68-88
# ops (1156-1936 pairs) spent 4.8-17 s CPU on one probe at the bound with 60% of
# DEFAULT_RLIMIT that answered unknown; the answers above 1000 pairs, over the 146
# reference compiles, 93 wide kernels and bench/scheduler's loops, took at most 7.9M
# (tight96-s1, 1274 pairs: sat at its bound, cap 9.4M), below it up to 23.5M (315 pairs)
LARGE_PROBE_PAIRS = 1000
LARGE_PROBE_RLIMIT_PAIRS = 12_000_000_000
ANCHOR_RLIMIT = 1_000_000
# the probe just below the schedule in hand, in a solver of its own (its refutation
# near the optimum is cheap: 53k on the unrolled vecadd)
SIDE_PROBE_RLIMIT = 300_000


def probe_cap(pairs: int) -> int | None:
    """The most rlimit one probe of the II search of a loop of `pairs` resource pairs
    may take (None: its share of the budget alone)."""
    return LARGE_PROBE_RLIMIT_PAIRS // pairs if pairs > LARGE_PROBE_PAIRS else None


def _length(p: LoopProblem, start: list[int]) -> int:
    return max(s + t.latency for s, t in zip(start, p.tasks, strict=False))


def _bytes(p: LoopProblem, versions: dict[str, int]) -> int:
    return sum(versions[b.name] * b.size for b in p.buffers)


def _check_capacity(p: LoopProblem) -> None:
    need: dict[str, int] = {}
    for b in p.buffers:
        need[b.scope] = need.get(b.scope, 0) + b.size
    for scope in sorted(need):
        if scope in p.capacity and need[scope] > p.capacity[scope]:
            names = ", ".join(b.name for b in p.buffers if b.scope == scope)
            raise SchedulingError(
                f"scope {scope!r} needs {need[scope]} bytes for one version of each buffer "
                f"({names}) but its capacity is {p.capacity[scope]} bytes"
            )


class _RecMii:
    """rec_mii of one problem per version choice, each computed once: the attempts at
    every II of a search ask it again for the same few choices (a Bellman-Ford
    bisection each: 47 of them, 1 of 5 CPU s, on a loop of 4 chains of 16 ops). One per
    search (`_IncrementalSearch.recurrences`), shared by its IMS attempt at the bound
    and the heuristic's gallop."""

    def __init__(self, p: LoopProblem):
        self.p = p
        self.known: dict[tuple[tuple[str, int], ...], int] = {}

    def __call__(self, versions: dict[str, int]) -> int:
        key = tuple(sorted(versions.items()))
        if key not in self.known:
            self.known[key] = rec_mii(self.p, versions)
        return self.known[key]


def _ims_attempt(p: LoopProblem, ii: int, version_choices: list[dict[str, int]], factor: int,
                 recurrences: _RecMii) -> _Model | None:
    """IMS placing first fit; when that fails, a list schedule in topological order
    without evictions, then IMS placing best fit: a pipe the bound saturates must be
    packed without holes, which first-fit IMS rarely does."""
    def ims(best_fit: bool) -> Callable[[dict[str, int]], list[int] | None]:
        return lambda versions: iterative_modulo_schedule(p, ii, versions, factor, best_fit=best_fit)

    for attempt in (ims(False), lambda versions: list_modulo_schedule(p, ii, versions), ims(True)):
        for versions in version_choices:
            if recurrences(versions) > ii:
                continue
            sched = attempt(versions)
            if sched is not None:
                return polish(p, _Model(ii, sched, versions))
    return None


def schedules_at(p: LoopProblem, result: LoopResult) -> list[LoopResult]:
    """Other schedules of `p` at `result`'s II and versions, for a loop whose code does not
    keep `result`: iterative modulo scheduling placing first fit and best fit, polished
    as the heuristic's are, each once and neither `result` itself. A schedule proven
    optimal in II leaves others at that II, and the code of one may keep it where the
    solver's does not (unseen seed 503 on the 910B, 5 chains: the solver's II 229 code
    ran 350 a pass, its stores handing the HBM port to the next pass's loads; the first
    fit one at 229 replays at 292). Their bytes and length are not optimised."""
    out: list[LoopResult] = []
    seen = {tuple(result.start)}
    for best_fit in (False, True):
        start = iterative_modulo_schedule(p, result.ii, dict(result.versions), best_fit=best_fit)
        if start is None:
            continue
        model = polish(p, _Model(result.ii, start, dict(result.versions)))
        if tuple(model.start) in seen or check_schedule(p, model.ii, model.start, model.versions):
            continue
        seen.add(tuple(model.start))
        out.append(replace(
            result, **_laid_out(p, model), stats={**result.stats, "bytes_optimal": False, "length_optimal": False},
            message=f"{result.message}; " * bool(result.message) + "the solver's code runs slower than that of "
                    f"iterative modulo scheduling ({'best' if best_fit else 'first'} fit) at its II, written instead"))
    return out


def _heuristic(p: LoopProblem, lo: int, version_choices: list[dict[str, int]], max_ii: int,
               recurrences: _RecMii, failed_at_lo: bool = False) -> tuple[_Model, str]:
    """IMS at the lower bound, then galloping and bisection over II.

    The attempt at the bound (where success proves the II optimal) gets a
    large eviction budget, the others less.  IMS success is not strictly
    monotone in II, but galloping + bisection keeps the number of attempts
    logarithmic in the gap while landing close to the least II it can reach.
    failed_at_lo: first-fit IMS with IMS_BUDGET already failed at `lo` with these
    choices (the attempt at the bound in _IncrementalSearch.in_hand): IMS is
    deterministic, so that attempt is not repeated (130 tasks: ~1/4 of the IMS time).
    """

    def attempt(ii: int, factor: int) -> _Model | None:
        for versions in version_choices:
            if recurrences(versions) > ii:
                continue
            sched = iterative_modulo_schedule(p, ii, versions, factor)
            if sched is not None:
                return polish(p, _Model(ii, sched, versions))
        return None

    kind = "iterative modulo scheduling"
    best = None if failed_at_lo else attempt(lo, IMS_BUDGET)
    if best is not None:
        return best, kind
    failed, d = lo, 1
    while lo + d < max_ii:
        best = attempt(lo + d, 20)
        if best is not None:
            break
        failed = lo + d
        d *= 2
    if best is None:
        seq_ii, seq_start = sequential_schedule(p)
        return _Model(seq_ii, seq_start, {b.name: 1 for b in p.buffers}), "sequential schedule"
    while failed + 1 < best.ii:
        mid = (failed + best.ii) // 2
        m = attempt(mid, 20)
        if m is not None:
            best = m
        else:
            failed = mid
    return best, kind


class _Secondary:
    """Access to the solver for the secondary objectives at one II: created and
    guarded on first use (a schedule that meets both bounds needs no solver)."""

    def __init__(self, solver: Callable[[], _Encoder], ii: int, windows: Windows | None,
                 guarded: bool, hint: _Model | None):
        self._solver, self.ii, self.windows, self.guarded, self.hint = solver, ii, windows, guarded, hint
        self.base: list[z3.BoolRef] = []
        self.pin: list[z3.BoolRef] = []
        self.full: list[z3.BoolRef] = []
        self._ready = False

    def enc(self) -> _Encoder:
        e = self._solver()
        if not self._ready:
            self._ready = True
            if self.guarded:
                e.add_probe(self.ii, self.windows)
                self.base, self.pin, self.full = [e.guards[self.ii]], [e.sym_guards[self.ii]], [e.full_guards[self.ii]]
            if self.hint is not None:
                e.hint(self.hint)
        return e


def _min_bytes(p: LoopProblem, sec: _Secondary, sub: _Budget, best: _Model) -> tuple[_Model, bool]:
    """Fewest buffer bytes at the II, from the least versions the separations allow.

    Byte totals are sparse (sums of multiples of sizes): descend one improvement
    at a time, trying the lower bound first."""
    windows = sec.windows
    least = windows.versions if windows is not None and windows.versions is not None else {}
    floor = sum(b.size * least.get(b.name, 1) for b in p.buffers)
    target = floor
    optimal = True
    while _bytes(p, best.versions) > floor:
        if sub.spent():  # what the check would answer, without building the model
            sub.exhausted = True
            return best, False
        e = sec.enc()
        lit = e.bound_literal("bytes", target)
        res = e.check(sub, sec.base + sec.pin + [lit], f"bytes<={target}@{sec.ii}", share=0.5)
        if res == z3.sat:
            best = e.read_model(sec.ii)
        else:
            optimal = optimal and res == z3.unsat
            if target == _bytes(p, best.versions) - 1:
                break
        target = _bytes(p, best.versions) - 1
    return best, optimal


def _min_length(p: LoopProblem, sec: _Secondary, sub: _Budget, best: _Model) -> tuple[_Model, bool]:
    """Shortest schedule length at the II with the buffer bytes fixed: bisection
    from the lower bound (tried first, cheaply: it is often reached)."""
    lo = max(length_lower_bound(p), pipe_length_bound(p))
    if sec.windows is not None and sec.windows.feasible:
        lo = max(lo, length_bound(p, sec.ii, sec.windows) or 0)
    hi = _length(p, best.start)
    optimal = True
    bytes_fixed: list[z3.BoolRef] = []
    first = True
    while lo < hi and not sub.spent():
        e = sec.enc()
        if p.buffers and not bytes_fixed:
            bytes_fixed = [e.bound_literal("bytes", _bytes(p, best.versions))]
        mid = lo if first else (lo + hi) // 2
        lit = e.bound_literal("length", mid)
        res = e.check(sub, sec.base + sec.full + bytes_fixed + [lit], f"length<={mid}@{sec.ii}",
                      share=0.125 if first else 0.34)
        first = False
        if res == z3.sat:
            best = e.read_model(sec.ii)
            hi = _length(p, best.start)
            continue
        if res != z3.unsat and not optimal:
            break  # a second unknown: proofs are out of reach, keep the schedule
        # unsat proves the bound; unknown only lets the search move on
        optimal = optimal and res == z3.unsat
        lo = mid + 1
    if lo < hi:
        optimal = False
        sub.exhausted = True
    return best, optimal


def _optimise_secondary(
    p: LoopProblem,
    solver: Callable[[], _Encoder],
    budget: _Budget,
    model: _Model,
    stats: dict[str, Any],
    share: float = 1.0,
    windows: Windows | None = None,
    guarded: bool = True,
    use_hint: bool = False,
    cap: int | None = None,
) -> _Model:
    """At the final II: fewest buffer bytes, then shortest length.

    Each objective first compares with its lower bound, so a schedule that meets
    it needs no solver call.  Otherwise, with `guarded`, the bytes search runs on
    the feasibility constraints of the II with the symmetry breaking (sound for
    bytes: rotation, component shifts and twin swaps keep versions), the length
    search on the full model without it.  This phase may spend `share` of the
    remaining budget, at most `cap`: an anytime search, each check capped so
    that one hard proof cannot starve the rest; a capped `unknown` leaves the
    objective marked unproven.
    """
    sub = budget.child(share, cap)
    if len(p.resource_pairs()) > SECONDARY_MAX_PAIRS:
        # the full model of a very large loop costs more memory than the proofs
        # are worth: keep the compacted schedule, report both objectives unproven
        # unless they meet their bounds
        sub = _Budget(0, None)
        stats["secondary_skipped"] = f"more than {SECONDARY_MAX_PAIRS} resource pairs"
    sec = _Secondary(solver, model.ii, windows, guarded, model if use_hint else None)
    best, bytes_optimal = _min_bytes(p, sec, sub, model) if p.buffers else (model, True)
    best, length_optimal = _min_length(p, sec, sub, best)
    budget.charge(sub)
    stats["bytes_optimal"] = bytes_optimal
    stats["length_optimal"] = length_optimal
    return best


def schedule_loop(
    problem: LoopProblem,
    *,
    search: str = "incremental",
    time_ms: int | None = None,
    rlimit: int | None = DEFAULT_RLIMIT,
    seed: int = 0,
    optimize_secondary: bool = True,
    use_hint: bool = True,
    secondary_share: float = 0.25,
    secondary_rlimit: int | None = SECONDARY_RLIMIT,
    heuristic: bool = True,
    probe_share: float = 0.6,
    known: LoopResult | None = None,
    ii_below: int | None = None,
    resume: list[Callable[[], LoopResult]] | None = None,
) -> LoopResult:
    """Modulo-schedule one loop; see the module docstring for the strategy.

    time_ms / rlimit: budget for all solver calls of this loop (None: unlimited).
    Only rlimit keeps results reproducible; a wall-clock limit depends on load.
    The secondary objectives (bytes, then length, at the final II) may use
    `secondary_share` of the budget left after the II search, at most
    `secondary_rlimit` (None: no cap).
    heuristic=False skips iterative modulo scheduling (the solver alone then
    searches up from the lower bound; the sequential schedule is the fallback).
    known: a schedule of this same problem from an earlier solve (a trial of the
    unroll search): it is the schedule in hand when it is valid here, and when its
    status is "optimal" every II below it counts as proven infeasible (not probed
    again). ii_below: only an II below this is wanted (the caller keeps a schedule
    of its own otherwise): the solver probes nothing at or above it, and a result at
    or above it is the schedule in hand, status "heuristic", its message saying so.
    resume: gets a function that gives this solve's result with the secondary
    objectives optimised, going on from the same II search (the search runs once):
    for a caller that asks optimize_secondary=False and optimises the bytes and
    length only of a schedule it keeps.
    """
    if search not in ("incremental", "bisect"):
        raise ValueError(f"unknown search {search!r}; expected 'incremental' or 'bisect'")
    t0 = time.perf_counter()
    problem.validate()
    # the same schedules, searched on fewer dependences (implied.py)
    p = without_implied(problem)
    _check_capacity(p)
    check_zero_distance_cycles(p)
    bounds = compute_mii(p)
    if search == "bisect":
        if resume is not None:
            resume.append(lambda: _schedule_bisect(p, bounds, seed, True, time.perf_counter()))
        return _schedule_bisect(p, bounds, seed, optimize_secondary, t0)

    search_state = _IncrementalSearch(p, seed, _Budget(rlimit, time_ms), probe_share)
    search_state.known, search_state.ii_below = known, ii_below
    settled = search_state.settle_ii(bounds, t0, heuristic)
    secondary = (use_hint, secondary_share, secondary_rlimit)
    if resume is not None:
        resume.append(lambda: search_state.result(settled, secondary))
    return search_state.result(settled, secondary if optimize_secondary else None)


def _schedule_of(p: LoopProblem, result: LoopResult) -> bool:
    """Whether `result` is a valid schedule of `p` (one start per task, versions of
    p's buffers)."""
    return (len(result.start) == len(p.tasks) and set(result.versions) == {b.name for b in p.buffers}
            and not check_schedule(p, result.ii, result.start, result.versions))


def ii_lower_bound(problem: LoopProblem, cap: int | None = None) -> int:
    """The II below which `problem` has no schedule, as the default search starts from
    (MII raised by the structural propagation's short scan; the scan stops at `cap`:
    min(bound, cap) is all a caller asking "bound >= cap?" needs); no solver call."""
    problem.validate()
    problem = without_implied(problem)  # the same bounds from fewer dependences
    _check_capacity(problem)
    check_zero_distance_cycles(problem)
    mii, (seq_ii, _) = compute_mii(problem).mii, sequential_schedule(problem)
    upper = max(seq_ii, mii) if cap is None else min(max(seq_ii, mii), max(cap, mii))
    return _IncrementalSearch(problem, 0, _Budget(None, None), 1.0).lower_bound(mii, upper)


class _IncrementalSearch:
    """State of the default search of one loop (see the module docstring)."""

    def __init__(self, p: LoopProblem, seed: int, budget: _Budget, probe_share: float):
        self.p, self.seed, self.budget, self.probe_share = p, seed, budget, probe_share
        self.struct = analyse(p)
        self.pairs = p.resource_pairs()
        self.refuted: list[int] = []
        self.windows: dict[int, Windows] = {}
        self.encoders: list[_Encoder] = []
        self.probes: list[tuple[int, str]] = []
        self.stats: dict[str, Any] = {"search": "incremental"}
        self.known: LoopResult | None = None
        self.ii_below: int | None = None
        self.side_log: list[tuple[str, str]] = []
        self.side_rlimit = 0
        self.ims_failed_at: int | None = None  # the II of in_hand's IMS attempt (when it failed)
        self.recurrences = _RecMii(p)

    def solver(self) -> _Encoder:
        """The one solver of this loop, created on first use (none at all when the
        bounds and the heuristic settle everything)."""
        if not self.encoders:
            self.encoders.append(_Encoder(self.p, self.seed, self.struct))
            self.encoders[0].assert_global()
        return self.encoders[0]

    def refute(self, ii: int) -> bool:
        """Whether the separation/window propagation proves `ii` infeasible."""
        if ii not in self.windows:
            self.windows[ii] = propagate(self.p, ii, max_versions(self.p), self.pairs, self.struct)
        if not self.windows[ii].feasible:
            self.refuted.append(ii)
        return not self.windows[ii].feasible

    def probe(self, ii: int) -> z3.CheckSatResult:
        if self.refute(ii):
            return z3.unsat
        enc = self.solver()
        enc.add_probe(ii, self.windows[ii])
        # one probe may take `probe_share` of what is left: a hard proof near the
        # bound must not starve the probes above it (anytime search)
        res = enc.check(self.budget, [enc.guards[ii], enc.sym_guards[ii]], f"ii={ii}", share=self.probe_share,
                        cap=probe_cap(len(self.pairs)))
        self.probes.append((ii, str(res)))
        return res

    def in_hand(self, lo: int, choices: list[dict[str, int]], heuristic: bool,
                sequential: _Model) -> tuple[_Model, str, int]:
        """The schedule the solver has to beat, what made it, and the lower bound
        (raised to a known schedule's II when an earlier solve proved it)."""
        known = self.known
        if known is not None and _schedule_of(self.p, known):
            lo = max(lo, known.ii) if known.status == "optimal" else lo
            if known.ii <= sequential.ii:
                return _Model(known.ii, list(known.start), dict(known.versions)), "earlier solve", lo
        if heuristic:
            # one IMS attempt at the bound: when it succeeds, II is proven
            # without a solver call; otherwise the solver probes from the bound
            quick = _ims_attempt(self.p, lo, choices, IMS_BUDGET, self.recurrences)
            self.ims_failed_at = lo
            if quick is not None:
                return quick, "iterative modulo scheduling", lo
            if self.solver_skipped():
                return sequential, "sequential schedule", lo
            # a pipe the bound saturates, packed in body order (packing.py)
            packed = packed_schedule(self, lo)
            if packed is not None:
                return packed, "saturated pipe packed in body order", lo
        return sequential, "sequential schedule", lo

    def solver_skipped(self) -> bool:
        """Whether the loop is too large for the solver to be asked (SOLVER_MAX_PAIRS)."""
        if len(self.pairs) <= SOLVER_MAX_PAIRS:
            return False
        self.stats["solver_skipped"] = f"{len(self.pairs)} resource pairs, more than {SOLVER_MAX_PAIRS}"
        return True

    def side_probe(self, ii: int) -> tuple[z3.CheckSatResult, _Model | None]:
        """A probe of `ii` in a solver of its own, at most SIDE_PROBE_RLIMIT: what it
        learns stays out of the search's solver (a satisfiable probe far above the
        optimum taught that one lemmas that made the probe at the bound 7x slower on a
        64-task loop), and a hard one costs little. Unknown says nothing."""
        if self.refute(ii):
            return z3.unsat, None
        enc = _Encoder(self.p, self.seed, self.struct)
        enc.assert_global()
        enc.add_probe(ii, self.windows[ii])
        sub = self.budget.child(1.0, SIDE_PROBE_RLIMIT)
        res = enc.check(sub, [enc.guards[ii], enc.sym_guards[ii]], f"ii={ii} (own solver)")
        exhausted = self.budget.exhausted
        self.budget.charge(sub)
        self.budget.exhausted = exhausted  # a capped unknown does not end the search
        self.probes.append((ii, str(res)))
        self.side_log += enc.log
        self.side_rlimit += enc.rlimit_used
        return res, enc.read_model(ii) if res == z3.sat else None

    def lower_bound(self, mii: int, upper: int) -> int:
        """The least II from MII that the propagation cannot refute (a short scan)."""
        lo = mii
        while lo < min(upper, mii + STRUCTURAL_SCAN) and self.refute(lo):
            lo += 1
        return lo

    def version_choices(self, lo: int) -> list[dict[str, int]]:
        least = self.windows[lo].versions if lo in self.windows else None
        choices = [least] if least is not None else []
        return choices + ([fit_versions(self.p)] if fit_versions(self.p) not in choices else [])

    def search(self, lo: int, hi: int) -> tuple[_Model | None, int, int | None]:
        """Least feasible II in [lo, hi) by the solver: (model or None, largest II
        proven infeasible, first II answered unknown).

        Feasibility is monotone in II (a schedule at II gives one at II+1 with
        the same offsets and stages), so one unsat probe at x proves every II <= x
        infeasible.  Gallop upward from the lower bound (lo, +1, +3, +7, ...
        below the known feasible hi), then bisect inside the last gap.  An
        unknown probe is never read as infeasible, and it ends the search
        (optimality then stays unproven): a probe that gets `probe_share` of the
        budget and cannot answer leaves the probes after it too little. On 161
        unseen loops (910B seeds 0-99, four_ids.toml 0-60), 139 solves had an
        unknown probe; the probes after it spent 665M of the 2236M rlimit of all
        solves and answered sat or unsat in one (four_ids 22, whose schedule in
        hand was the sequential one: settle_ii's full IMS search takes that role).
        """
        found: _Model | None = None
        last_unsat = lo - 1   # largest II proven infeasible
        floor = lo            # smallest II neither proven infeasible nor given up
        if lo < hi - 1:
            # the schedule in hand is often optimal while the lower bound is loose:
            # one refutation just below it proves that at once (a single probe where
            # galloping up from the bound takes log(hi - lo) of them)
            top, model = self.side_probe(hi - 1)
            if top == z3.unsat:
                return None, hi - 1, None
            if model is not None:
                found, hi = model, hi - 1
        ii, step = lo, 1
        while ii < hi:
            res = self.probe(ii)
            if res == z3.sat:
                found, hi = self.solver().read_model(ii), ii
                break
            if res != z3.unsat:
                return found, last_unsat, ii
            floor = ii + 1
            last_unsat = ii
            ii = min(ii + step, hi)
            step *= 2
        while floor < hi and not self.budget.spent():
            mid = (floor + hi) // 2
            res = self.probe(mid)
            if res == z3.sat:
                found, hi = self.solver().read_model(mid), mid
                continue
            if res != z3.unsat:
                return found, last_unsat, mid
            floor = mid + 1
            last_unsat = mid
        return found, last_unsat, None

    def settle_ii(self, bounds: MiiBounds, t0: float, heuristic: bool) -> _SettledII:
        """The II search: the schedule it ends with and what it proved."""
        p, stats = self.p, self.stats
        seq_ii, seq_start = sequential_schedule(p)
        th = time.perf_counter()
        lo = self.lower_bound(bounds.mii, max(seq_ii, bounds.mii))
        stats["search_lower_bound"] = lo
        stats["bound_ms"] = round((time.perf_counter() - th) * 1000, 3)
        choices = self.version_choices(lo)
        sequential = _Model(seq_ii, seq_start, {b.name: 1 for b in p.buffers})
        heur, heur_kind, lo = self.in_hand(lo, choices, heuristic, sequential)
        stats["heuristic_ms"] = round((time.perf_counter() - th) * 1000, 3)
        tz = time.perf_counter()
        hi = heur.ii if self.ii_below is None else min(heur.ii, self.ii_below)
        if heur.ii > lo and self.solver_skipped():
            found, last_unsat, unknown_at = None, lo - 1, None
        else:
            found, last_unsat, unknown_at = self.search(lo, hi)
        stats["ii_ms"] = round((time.perf_counter() - t0) * 1000, 3)
        best_ii = heur.ii if found is None else found.ii
        if (heuristic and heur_kind == "sequential schedule" and self.ii_below is None
                and (found is None or unknown_at is not None) and last_unsat < best_ii - 1):
            # the solver gave up before it found anything, or at an unknown above the
            # side probe's schedule just below the sequential one: the full IMS search
            ims, ims_kind = _heuristic(p, last_unsat + 1, choices, best_ii, self.recurrences,
                                       failed_at_lo=self.ims_failed_at == last_unsat + 1)
            if ims.ii < best_ii or found is None:
                heur, heur_kind, found = ims, ims_kind, None
        if found is None:
            found = heur
        stats.update(heuristic_ii=heur.ii, heuristic=heur_kind)
        # below `lo` is infeasible (MII and structural bounds)
        proven = found.ii == lo or last_unsat == found.ii - 1
        if unknown_at is not None and not proven:
            self.budget.exhausted = True
        return _SettledII(bounds, t0, tz, found, found is heur, heur_kind, proven, last_unsat, unknown_at)

    def result(self, settled: _SettledII, secondary: tuple[bool, float, int | None] | None) -> LoopResult:
        """The loop's result from its settled II, with its bytes and length optimised
        when `secondary` (use_hint, share, rlimit) is given."""
        p, stats, found = self.p, self.stats, settled.found
        ts = time.perf_counter()
        if secondary is not None:
            use_hint, share, cap = secondary
            self.refute(found.ii)
            found = _optimise_secondary(p, self.solver, self.budget, found, stats, share=share,
                                        windows=self.windows[found.ii], use_hint=use_hint, cap=cap)
        else:
            stats["bytes_optimal"] = stats["length_optimal"] = None
        stats["secondary_ms"] = round((time.perf_counter() - ts) * 1000, 3)
        # a heuristic schedule the secondary search improved is the solver's
        from_heuristic = settled.from_heuristic and found is settled.found
        stats["schedule_from"] = "heuristic" if from_heuristic else "solver"
        stats["z3_ms"] = round((time.perf_counter() - settled.tz) * 1000, 3)
        proven = settled.proven
        status = "optimal" if proven else "heuristic" if from_heuristic else "feasible"
        message = _message(status, found.ii, stats["search_lower_bound"], settled.bounds.mii, settled.unknown_at,
                           settled.heur_kind, bool(self.probes), stats)
        if self.ii_below is not None and found.ii >= self.ii_below and not proven:
            cut = "proven" if settled.last_unsat == self.ii_below - 1 else "not settled (budget)"
            message = (f"no II below {self.ii_below} (the cut-off asked for): {cut}; "
                       f"the {settled.heur_kind} has II {found.ii}")
        enc = self.encoders[0] if self.encoders else None
        stats.update(
            refuted=list(self.refuted),
            probes=list(self.probes),
            check_log=self.side_log + (enc.log if enc else []),
            z3_checks=len(self.side_log) + (enc.checks if enc else 0),
            rlimit_used=self.side_rlimit + (enc.rlimit_used if enc else 0),
            budget_exhausted=self.budget.exhausted,
            ii_optimal=proven,
        )
        stats["solve_ms"] = round((time.perf_counter() - settled.t0) * 1000, 3)
        return _result(p, settled.bounds, found, status, message, copy.deepcopy(stats))


@dataclass(frozen=True)
class _SettledII:
    """Where a loop's II search ended (`_IncrementalSearch.settle_ii`)."""

    bounds: MiiBounds
    t0: float  # the solve's start
    tz: float  # the solver's start
    found: _Model
    from_heuristic: bool
    heur_kind: str
    proven: bool
    last_unsat: int
    unknown_at: int | None


def _message(status: str, ii: int, lo: int, mii: int, unknown_at: int | None, heur_kind: str,
             probed: bool, stats: dict[str, Any]) -> str:
    bound_text = f"MII {mii}" + (f", structural bound {lo}" if lo > mii else "")
    if status == "optimal" and heur_kind == "earlier solve" and ii > lo and not probed:
        message = f"II {ii} proven minimal by an earlier solve of the same problem ({bound_text})"
    elif status == "optimal":
        how = ("the heuristic schedule meets the lower bound" if ii == lo and not probed
               else "every smaller II proven infeasible" if ii > lo else "it meets the lower bound")
        message = f"II {ii} proven minimal: {how} ({bound_text})"
    elif "solver_skipped" in stats:
        message = (f"II {ii} from the {heur_kind}, not proven minimal: no solver call on a loop of "
                   f"{stats['solver_skipped']} ({bound_text})")
    elif status == "feasible":
        message = (f"solver budget exhausted at II {unknown_at}: II {ii} is feasible "
                   f"but not proven minimal ({bound_text})")
    else:
        message = (f"solver budget exhausted (unknown at II {unknown_at}) before it found a better "
                   f"schedule: using the {heur_kind} with II {ii} ({bound_text})")
    unproven = [what for key, what in (("bytes", "buffer bytes"), ("length", "schedule length"))
                if stats.get(f"{key}_optimal") is False]
    if unproven:
        message += f"; {' and '.join(unproven)} not proven minimal (budget)"
    return message


def _result(p: LoopProblem, bounds: MiiBounds, model: _Model, status: str, message: str,
            stats: dict[str, Any]) -> LoopResult:
    errors = check_schedule(p, model.ii, model.start, model.versions)
    if errors:  # an internal bug, never a user error: fail loudly
        raise AssertionError("scheduler produced an invalid schedule: " + "; ".join(errors))
    return LoopResult(
        ii=model.ii,
        mii=bounds.mii,
        res_mii=dict(bounds.res_mii),
        rec_mii=bounds.rec_mii,
        binding=bounds.binding,
        status=status,
        **_laid_out(p, model),
        message=message,
        stats=stats,
    )


def _laid_out(p: LoopProblem, model: _Model) -> dict[str, Any]:
    """A LoopResult's fields that `model` (its II, starts and versions) determines."""
    ii = model.ii
    return {"start": list(model.start), "stage": [s // ii for s in model.start], "offset": [s % ii for s in model.start],
            "versions": dict(model.versions), "length": _length(p, model.start),
            "buffer_bytes": {b.name: model.versions[b.name] * b.size for b in p.buffers}}


def _schedule_bisect(p: LoopProblem, bounds: MiiBounds, seed: int, optimize_secondary: bool,
                     t0: float) -> LoopResult:
    """The anchor's strategy, kept for comparison (see module docstring)."""
    stats: dict[str, Any] = {"search": "bisect"}
    lo = max(t.pipe_time for t in p.tasks)
    hi = max(sum(t.latency for t in p.tasks), sum(t.pipe_time for t in p.tasks)) + 1
    best: _Model | None = None
    best_enc: _Encoder | None = None
    probes: list[tuple[int, str]] = []
    checks = 0
    rlimit_used = 0
    tz = time.perf_counter()
    while lo < hi:
        mid = (lo + hi) // 2
        enc = _Encoder(p, seed)
        enc.assert_global()
        enc.assert_unguarded(mid)
        res = enc.check(_Budget(ANCHOR_RLIMIT, None), [], f"ii={mid}")
        checks += 1
        rlimit_used += enc.rlimit_used
        probes.append((mid, str(res)))
        if res == z3.sat:
            best = enc.read_model(mid)
            best_enc = enc
            hi = mid
        else:  # the anchor reads unknown as infeasible
            lo = mid + 1
    if best is not None and optimize_secondary and best_enc is not None:
        # same secondary objectives as the incremental search, in the final
        # probe's solver, so both modes return comparable schedules
        enc = best_enc
        before = enc.checks, enc.rlimit_used
        best = _optimise_secondary(p, lambda: enc, _Budget(ANCHOR_RLIMIT, None, per_check=True), best,
                                   stats, guarded=False)
        checks += enc.checks - before[0]
        rlimit_used += enc.rlimit_used - before[1]
    stats["z3_ms"] = round((time.perf_counter() - tz) * 1000, 3)
    unknown = any(r == "unknown" for _, r in probes)
    if best is None:
        seq_ii, seq_start = sequential_schedule(p)
        model = _Model(seq_ii, seq_start, {b.name: 1 for b in p.buffers})
        status = "fallback"
        message = f"bisection found no schedule; sequential fallback with II {seq_ii} (MII {bounds.mii})"
    else:
        model = best
        # feasibility is monotone in II, so bisection proves optimality when no
        # probe was unknown (the anchor cannot tell, it reads unknown as unsat)
        status = "feasible" if unknown and model.ii != bounds.mii else "optimal"
        message = f"bisection II {model.ii} (MII {bounds.mii})"
        if unknown:
            message += "; some probes returned unknown and were read as infeasible"
    stats.update(probes=probes, z3_checks=checks, rlimit_used=rlimit_used,
                 budget_exhausted=unknown, ii_optimal=status == "optimal")
    stats["solve_ms"] = round((time.perf_counter() - t0) * 1000, 3)
    return _result(p, bounds, model, status, message, stats)
