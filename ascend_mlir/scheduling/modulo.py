"""Z3 modulo scheduler: minimal II, then fewest buffer bytes, then shortest length.

Model for a fixed II (all linear, integer):
  k_i >= 0, 0 <= r_i < II, start_i = II*k_i + r_i, 1 <= buf_j <= max versions
  dependence u -> v:   start_v - start_u >= lat - II*dist      (dist = const or buf_j + const)
  resource pair i, j:  o_ij  -> r_j - r_i >= ii_i and r_i - r_j + II >= ii_j
                       !o_ij -> r_i - r_j >= ii_j and r_j - r_i + II >= ii_i
  capacity per scope:  sum buf_j * size_j <= capacity

Search (default, "incremental"):
  1. lower bound: MII = max(ResMII per pipe, conflict cliques, RecMII at the
     maximum versions), raised by a capacity-aware recurrence relaxation
     (dependences + versions + capacity, no resources: cheap, no disjunctions);
  2. upper bound: iterative modulo scheduling (ims.py) from the lower bound; if
     it meets the bound, II is proven minimal with no solver call;
  3. otherwise one solver in a private context probes II upward from the bound
     (lo, +1, +3, +7, ... then bisection in the last gap; feasibility is
     monotone in II, so an unsat probe excludes every smaller II).  Constraints
     that do not mention II are asserted once; the others per probed II, each
     guarded by a Boolean `at<II>` passed as an assumption, so the solver and
     its learnt lemmas are reused.  Each probe may use at most `probe_share` of
     the remaining budget; `unknown` is never read as infeasible (the search
     moves above it and optimality stays unproven);
  4. at the final II: fewest buffer bytes, then shortest length (anytime, a
     share of the remaining budget, see _optimise_secondary).
"optimal" means every II below the result is infeasible (bound or proof).

search="bisect" reproduces the anchor (TileLang): bisection of II between
max(ii) and max(sum latency, sum ii) + 1, a fresh solver per probe, rlimit 1e6
per probe, `unknown` counted as infeasible, sequential fallback if nothing is
found; the result reports that honestly (status "fallback" / "feasible").
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import z3

from .bounds import (
    MiiBounds,
    check_schedule,
    check_zero_distance_cycles,
    compact,
    compute_mii,
    length_lower_bound,
    rec_mii,
    sequential_schedule,
)
from .ims import fit_versions, iterative_modulo_schedule, minimal_versions
from .problem import LoopProblem, LoopResult, SchedulingError

DEFAULT_RLIMIT = 50_000_000
ANCHOR_RLIMIT = 1_000_000


class _Budget:
    """Remaining rlimit / wall time of one loop; shared by all checks."""

    def __init__(self, rlimit: int | None, time_ms: int | None, per_check: bool = False):
        self.rlimit = rlimit
        self._initial = rlimit
        self.per_check = per_check  # the anchor's rlimit applies to each check
        self.deadline = None if time_ms is None else time.monotonic() + time_ms / 1000.0
        self.exhausted = False

    def remaining_ms(self) -> int | None:
        if self.deadline is None:
            return None
        return max(0, int((self.deadline - time.monotonic()) * 1000))

    def child(self, share: float) -> "_Budget":
        """A budget of `share` of what remains; charge() it back afterwards."""
        rl = None if self.rlimit is None else max(0, int(self.rlimit * share))
        ms = self.remaining_ms()
        return _Budget(rl, None if ms is None else int(ms * share), self.per_check)

    def charge(self, sub: "_Budget") -> None:
        if self.rlimit is not None and sub.rlimit is not None and not self.per_check:
            self.rlimit -= sub._initial - sub.rlimit
        self.exhausted = self.exhausted or sub.exhausted

    def spent(self) -> bool:
        if self.rlimit is not None and self.rlimit <= 0:
            return True
        ms = self.remaining_ms()
        return ms is not None and ms <= 0


@dataclass
class _Model:
    ii: int
    start: list[int]
    versions: dict[str, int]


def _num(v: int) -> str:
    return str(v) if v >= 0 else f"(- {-v})"


def _lin(terms: list[tuple[int, str]]) -> str:
    """SMT-LIB text of sum(c * x); terms with c == 0 dropped."""
    parts = []
    for c, x in terms:
        if c == 1:
            parts.append(x)
        elif c != 0:
            parts.append(f"(* {_num(c)} {x})")
    if not parts:
        return "0"
    return parts[0] if len(parts) == 1 else "(+ " + " ".join(parts) + ")"


class _Encoder:
    """The z3 model of one problem in one private context.

    Constraints are emitted as SMT-LIB text and parsed by z3 in one call per
    batch: building hundreds of terms through the Python API costs more than
    solving them.  Python handles exist only for the variables we read back.
    """

    def __init__(self, p: LoopProblem, seed: int):
        self.p = p
        self.ctx = z3.Context()
        self.solver = z3.SolverFor("QF_LIA", ctx=self.ctx)
        self.solver.set("random_seed", seed)
        self.checks = 0
        self.rlimit_used = 0
        self.log: list[tuple[str, str]] = []  # (what was asked, sat/unsat/unknown/skipped)
        n = len(p.tasks)
        c = self.ctx
        self.bufidx = {b.name: j for j, b in enumerate(p.buffers)}
        self.pairs = p.resource_pairs()
        decl = [f"(declare-const k{i} Int)(declare-const r{i} Int)" for i in range(n)]
        decl += [f"(declare-const b{j} Int)" for j in range(len(p.buffers))]
        decl += [f"(declare-const o{i}_{j} Bool)" for i, j in self.pairs]
        decl.append("(declare-const length Int)")
        self.solver.from_string("".join(decl))
        self.k = [z3.Int(f"k{i}", c) for i in range(n)]
        self.r = [z3.Int(f"r{i}", c) for i in range(n)]
        self.buf = {b.name: z3.Int(f"b{j}", c) for j, b in enumerate(p.buffers)}
        self.length = z3.Int("length", c)
        self.order = {pr: z3.Bool(f"o{pr[0]}_{pr[1]}", c) for pr in self.pairs}
        self.bytes_text = _lin([(b.size, f"b{j}") for j, b in enumerate(p.buffers)])
        self.guards: dict[int, z3.BoolRef] = {}
        self.sym_guards: dict[int, z3.BoolRef] = {}
        self._aux = 0

    def assert_global(self) -> None:
        """Constraints that do not depend on II."""
        p = self.p
        out = []
        for i in range(len(p.tasks)):
            out.append(f"(assert (>= k{i} 0))(assert (>= r{i} 0))")
        by_scope: dict[str, list[int]] = {}
        for j, b in enumerate(p.buffers):
            out.append(f"(assert (>= b{j} 1))(assert (<= b{j} {p.max_versions(b)}))")
            by_scope.setdefault(b.scope, []).append(j)
        for scope, js in sorted(by_scope.items()):
            if scope in p.capacity:
                expr = _lin([(p.buffers[j].size, f"b{j}") for j in js])
                out.append(f"(assert (<= {expr} {p.capacity[scope]}))")
        self.solver.from_string("".join(out))

    def ii_constraints(self, ii: int) -> list[str]:
        """Every constraint that mentions II, for one fixed II, as SMT-LIB terms."""
        p = self.p
        cs: list[str] = []
        kmax = self._stage_bound(ii)
        for i, t in enumerate(p.tasks):
            cs.append(f"(<= r{i} {ii - 1})")
            cs.append(f"(<= k{i} {kmax})")
            cs.append(f"(>= (- length {_lin([(ii, f'k{i}'), (1, f'r{i}')])}) {t.latency})")
        for d in p.deps:
            u, v = d.src, d.dst
            rhs = d.latency - ii * d.distance
            if u == v:
                if d.buffer is None:
                    # self-dependence: II*dist >= lat, a constant test
                    cs.append("true" if rhs <= 0 else "false")
                    continue
                terms = [(ii, f"b{self.bufidx[d.buffer]}")]
            else:
                terms = [(ii, f"k{v}"), (1, f"r{v}"), (-ii, f"k{u}"), (-1, f"r{u}")]
                if d.buffer is not None:
                    terms.append((ii, f"b{self.bufidx[d.buffer]}"))
            cs.append(f"(>= {_lin(terms)} {_num(rhs)})")
        tii = [t.ii for t in p.tasks]
        for i, j in self.pairs:
            o = f"o{i}_{j}"
            # o: i before j in the window, j ends before i's next instance
            cs.append(f"(=> {o} (and (>= (- r{j} r{i}) {tii[i]}) (>= (- r{i} r{j}) {_num(tii[j] - ii)})))")
            cs.append(f"(=> (not {o}) (and (>= (- r{i} r{j}) {tii[j]}) (>= (- r{j} r{i}) {_num(tii[i] - ii)})))")
        return cs

    def _stage_bound(self, ii: int) -> int:
        """Stages never need to exceed this (longest simple path in the k-difference graph).

        For any feasible offsets r, the least k solving the difference
        constraints has k_v <= sum over a simple path of
        ceil((lat + II - 1) / II) - min distance, positive parts only.
        """
        total = 0
        for d in self.p.deps:
            dmin = d.distance + (1 if d.buffer is not None else 0)
            total += max(0, -(-(d.latency + ii - 1) // ii) - dmin)
        return total

    def assert_unguarded(self, ii: int) -> None:
        self.solver.from_string("".join(f"(assert {c})" for c in self.ii_constraints(ii)))

    def add_probe(self, ii: int) -> None:
        """Assert the constraints of `ii` under a fresh guard literal."""
        if ii in self.guards:
            return
        g, sg = f"at{ii}", f"pin{ii}"
        text = [f"(declare-const {g} Bool)(declare-const {sg} Bool)"]
        text += [f"(assert (=> {g} {c}))" for c in self.ii_constraints(ii)]
        # symmetry breaking: rotating every start by one cycle keeps a schedule
        # valid, so one task may be pinned to offset 0 for feasibility probes
        text.append(f"(assert (=> {sg} (= r{self._pinned()} 0)))")
        self.solver.from_string("".join(text))
        self.guards[ii] = z3.Bool(g, self.ctx)
        self.sym_guards[ii] = z3.Bool(sg, self.ctx)

    def _pinned(self) -> int:
        return max(range(len(self.p.tasks)), key=lambda i: (self.p.tasks[i].ii, -i))

    def hint(self, model: _Model) -> None:
        """Seed the solver's phase with a known schedule (e.g. the heuristic's)."""
        ii = model.ii
        s = self.solver
        for i, st in enumerate(model.start):
            s.set_initial_value(self.k[i], st // ii)
            s.set_initial_value(self.r[i], st % ii)
        for name, v in model.versions.items():
            s.set_initial_value(self.buf[name], v)
        for (i, j), o in self.order.items():
            s.set_initial_value(o, z3.BoolVal(model.start[i] % ii <= model.start[j] % ii, self.ctx))

    def bound_literal(self, what: str, bound: int) -> z3.BoolRef:
        """A fresh literal implying `what <= bound` (what: "bytes" or "length")."""
        self._aux += 1
        name = f"bound{self._aux}"
        expr = self.bytes_text if what == "bytes" else "length"
        self.solver.from_string(f"(declare-const {name} Bool)(assert (=> {name} (<= {expr} {bound})))")
        return z3.Bool(name, self.ctx)

    def check(self, budget: _Budget, assumptions: list[z3.BoolRef], what: str,
              share: float = 1.0) -> z3.CheckSatResult:
        """One check under the budget; `share` < 1 caps this check at that part of
        what remains (an unknown from the cap does not exhaust the budget)."""
        s = self.solver
        if budget.spent():
            budget.exhausted = True
            self.log.append((what, "skipped"))
            return z3.unknown
        limit = budget.rlimit
        if limit is not None and share < 1.0:
            limit = max(1, int(limit * share))
        s.set("rlimit", 0 if limit is None else limit)
        ms = budget.remaining_ms()
        if ms is not None and share < 1.0:
            ms = int(ms * share)
        s.set("timeout", 0 if ms is None else max(1, ms))
        before = self._rlimit_count()
        res = s.check(*assumptions)
        used = self._rlimit_count() - before
        self.rlimit_used += used
        if budget.rlimit is not None and not budget.per_check:
            budget.rlimit -= used
        self.checks += 1
        self.log.append((what, str(res)))
        if res == z3.unknown and (share >= 1.0 or budget.spent()):
            budget.exhausted = True
        return res

    def _rlimit_count(self) -> int:
        st = self.solver.statistics()
        for key in st.keys():
            if key == "rlimit count":
                return int(st.get_key_value(key))
        return 0

    def read_model(self, ii: int) -> _Model:
        m = self.solver.model()
        start = [
            ii * m.eval(k, model_completion=True).as_long() + m.eval(r, model_completion=True).as_long()
            for k, r in zip(self.k, self.r)
        ]
        versions = {name: m.eval(v, model_completion=True).as_long() for name, v in self.buf.items()}
        return polish(self.p, _Model(ii, start, versions))


def polish(p: LoopProblem, model: _Model) -> _Model:
    """Fewest versions the schedule allows, then least stages for its offsets.

    Both are exact post-passes (no solver): the model stays valid and neither
    bytes nor length can get worse.  The solver only has to improve on this.
    """
    ii, start, versions = model.ii, model.start, model.versions
    for _ in range(2):
        versions = minimal_versions(p, ii, start, versions)
        start = compact(p, ii, start, versions)
    return _Model(ii, start, versions)


def _length(p: LoopProblem, start: list[int]) -> int:
    return max(s + t.latency for s, t in zip(start, p.tasks))


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


def _heuristic(p: LoopProblem, lo: int, version_choices: list[dict[str, int]], max_ii: int) -> tuple[_Model, str]:
    """IMS at the lower bound, then galloping and bisection over II.

    The attempt at the bound (where success proves the II optimal) gets a
    large eviction budget, the others less.  IMS success is not strictly
    monotone in II, but galloping + bisection keeps the number of attempts
    logarithmic in the gap while landing close to the least II it can reach.
    """

    def attempt(ii: int, factor: int) -> _Model | None:
        for versions in version_choices:
            if rec_mii(p, versions) > ii:
                continue
            sched = iterative_modulo_schedule(p, ii, versions, factor)
            if sched is not None:
                return polish(p, _Model(ii, sched, versions))
        return None

    kind = "iterative modulo scheduling"
    best = attempt(lo, 60)
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


def _capacity_recurrence_bound(p: LoopProblem, lo: int, hi: int, seed: int, budget: _Budget,
                               stats: dict[str, Any]) -> tuple[int, dict[str, int]]:
    """Least II in [lo, hi] whose recurrences can be met by versions that fit the capacity.

    RecMII assumes every buffer gets its maximum versions; when the capacity
    cannot hold them all, the recurrences alone may need a larger II.  The
    relaxation (dependences + versions + capacity, no resources, no modulo
    offsets) has no disjunctions, so each check is a cheap integer-difference
    problem; bisection over II finds the bound.  `hi` must be feasible (one
    version of everything).  Also returns versions that meet the bound.
    """
    versions = fit_versions(p)
    if all(versions[b.name] == p.max_versions(b) for b in p.buffers) or lo >= hi:
        return lo, versions
    ctx = z3.Context()
    solver = z3.SolverFor("QF_LIA", ctx=ctx)
    solver.set("random_seed", seed)
    s = [z3.Int(f"s_{i}", ctx) for i in range(len(p.tasks))]
    buf = {b.name: z3.Int(f"buf_{b.name}", ctx) for b in p.buffers}
    by_scope: dict[str, list] = {}
    for b in p.buffers:
        solver.add(buf[b.name] >= 1, buf[b.name] <= p.max_versions(b))
        by_scope.setdefault(b.scope, []).append(b)
    for scope, bufs in sorted(by_scope.items()):
        if scope in p.capacity:
            solver.add(z3.Sum([buf[b.name] * b.size for b in bufs]) <= p.capacity[scope])
    checks = 0
    at_hi = {b.name: 1 for b in p.buffers}
    while lo < hi:
        if budget.spent():
            break
        mid = (lo + hi) // 2
        g = z3.Bool(f"rec_at_{mid}", ctx)
        for d in p.deps:
            dist = d.distance * mid + (mid * buf[d.buffer] if d.buffer is not None else 0)
            solver.add(z3.Implies(g, s[d.dst] - s[d.src] + dist >= d.latency))
        solver.set("rlimit", 0 if budget.rlimit is None else budget.rlimit)
        ms = budget.remaining_ms()
        solver.set("timeout", 0 if ms is None else max(1, ms))
        res = solver.check(g)
        checks += 1
        if res == z3.sat:
            hi = mid
            m = solver.model()
            at_hi = {name: m.eval(v, model_completion=True).as_long() for name, v in buf.items()}
        elif res == z3.unsat:
            lo = mid + 1
        else:
            break  # keep the weaker bound; unknown proves nothing
    st = solver.statistics()
    if budget.rlimit is not None and "rlimit count" in st.keys():
        budget.rlimit -= int(st.get_key_value("rlimit count"))
    stats["capacity_rec_checks"] = checks
    return lo, (at_hi if lo == hi else versions)


def _optimise_secondary(
    enc: _Encoder,
    budget: _Budget,
    model: _Model,
    base: list[z3.BoolRef],
    pin: list[z3.BoolRef],
    stats: dict[str, Any],
    share: float = 1.0,
) -> _Model:
    """At the final II: fewest buffer bytes, then shortest length.

    `base` selects the final II's constraints; `pin` the rotation symmetry
    breaking, which is sound for bytes (rotation keeps versions) but not for
    length.  This phase may spend `share` of the remaining budget: it is an
    anytime search, each check capped so that one hard proof cannot starve the
    rest; a capped `unknown` leaves the objective marked unproven.
    """
    p = enc.p
    ii = model.ii
    best = model
    sub = budget.child(share)
    bytes_fixed: list[z3.BoolRef] = []
    bytes_optimal = True
    if p.buffers:
        # byte totals are sparse (sums of multiples of sizes): descend one
        # improvement at a time, trying the absolute minimum first
        floor = sum(b.size for b in p.buffers)
        target = floor
        while _bytes(p, best.versions) > floor:
            lit = enc.bound_literal("bytes", target)
            res = enc.check(sub, base + pin + [lit], f"bytes<={target}@{ii}", share=0.5)
            if res == z3.sat:
                best = enc.read_model(ii)
            elif res == z3.unknown:
                bytes_optimal = False
                if target == _bytes(p, best.versions) - 1:
                    break
            elif target == _bytes(p, best.versions) - 1:
                break
            if _bytes(p, best.versions) <= floor:
                break
            target = _bytes(p, best.versions) - 1
        bytes_fixed = [enc.bound_literal("bytes", _bytes(p, best.versions))]
    length_optimal = True
    lo = length_lower_bound(p)
    hi = _length(p, best.start)
    first = True
    while lo < hi and not sub.spent():
        # the dependence bound is often reached: try it first, cheaply
        mid = lo if first else (lo + hi) // 2
        lit = enc.bound_literal("length", mid)
        res = enc.check(sub, base + bytes_fixed + [lit], f"length<={mid}@{ii}", share=0.125 if first else 0.34)
        first = False
        if res == z3.sat:
            best = enc.read_model(ii)
            hi = _length(p, best.start)
        else:
            # unsat proves the bound; unknown only lets the search move on
            length_optimal = length_optimal and res == z3.unsat
            lo = mid + 1
    if lo < hi:
        length_optimal = False
        sub.exhausted = True
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
    heuristic: bool = True,
    probe_share: float = 0.6,
) -> LoopResult:
    """Modulo-schedule one loop; see the module docstring for the strategy.

    time_ms / rlimit: budget for all solver calls of this loop (None: unlimited).
    Only rlimit keeps results reproducible; a wall-clock limit depends on load.
    The secondary objectives (bytes, then length, at the final II) may use
    `secondary_share` of the budget left after the II search.
    heuristic=False skips iterative modulo scheduling (the solver alone then
    searches up from the lower bound; the sequential schedule is the fallback).
    """
    if search not in ("incremental", "bisect"):
        raise ValueError(f"unknown search {search!r}; expected 'incremental' or 'bisect'")
    t0 = time.perf_counter()
    p = problem
    p.validate()
    _check_capacity(p)
    check_zero_distance_cycles(p)
    bounds = compute_mii(p)
    if search == "bisect":
        return _schedule_bisect(p, bounds, seed, optimize_secondary, t0)

    stats: dict[str, Any] = {"search": "incremental"}
    budget = _Budget(rlimit, time_ms)
    seq_ii, _ = sequential_schedule(p)
    th = time.perf_counter()
    lo, lo_versions = _capacity_recurrence_bound(p, bounds.mii, max(seq_ii, bounds.mii), seed, budget, stats)
    stats["search_lower_bound"] = lo
    choices = [lo_versions] + ([fit_versions(p)] if fit_versions(p) != lo_versions else [])
    if heuristic:
        heur, heur_kind = _heuristic(p, lo, choices, max(seq_ii, lo) + 1)
    else:  # solver-only search (ablation / tests): the sequential schedule bounds II
        seq_ii, seq_start = sequential_schedule(p)
        heur, heur_kind = _Model(seq_ii, seq_start, {b.name: 1 for b in p.buffers}), "sequential schedule"
    stats["heuristic_ms"] = round((time.perf_counter() - th) * 1000, 3)
    stats["heuristic_ii"] = heur.ii
    stats["heuristic"] = heur_kind

    enc = _Encoder(p, seed)
    enc.assert_global()
    tz = time.perf_counter()
    found: _Model | None = None
    unknown_at: int | None = None
    hi = heur.ii  # known feasible
    probes: list[tuple[int, str]] = []

    def probe(ii: int) -> z3.CheckSatResult:
        enc.add_probe(ii)
        # one probe may take 60 % of what is left: a hard proof near the bound
        # must not starve the probes above it (anytime search)
        res = enc.check(budget, [enc.guards[ii], enc.sym_guards[ii]], f"ii={ii}", share=probe_share)
        probes.append((ii, str(res)))
        return res

    # Feasibility is monotone in II (a schedule at II gives one at II+1 with the
    # same offsets and stages), so one unsat probe at x proves every II <= x
    # infeasible.  Gallop upward from the lower bound (lo, +1, +3, +7, ... below
    # the heuristic's II, which is feasible), then bisect inside the last gap.
    # An unknown probe is never read as infeasible: the search moves above it
    # but optimality then stays unproven.
    last_unsat = lo - 1   # largest II proven infeasible
    floor = lo            # smallest II neither proven infeasible nor given up
    ii, step = lo, 1
    while ii < hi:
        res = probe(ii)
        if res == z3.sat:
            found, hi = enc.read_model(ii), ii
            break
        floor = ii + 1
        if res == z3.unsat:
            last_unsat = ii
        else:
            unknown_at = ii
            break
        ii = min(ii + step, hi)
        step *= 2
    while floor < hi and not budget.spent():
        mid = (floor + hi) // 2
        res = probe(mid)
        if res == z3.sat:
            found, hi = enc.read_model(mid), mid
        else:
            floor = mid + 1
            if res == z3.unsat:
                last_unsat = mid
            elif unknown_at is None:
                unknown_at = mid
    if found is None and hi == heur.ii:
        found = heur
    elif found is None:
        raise AssertionError("II search lost its feasible upper bound")
    # below `lo` is infeasible (MII, or the capacity-aware recurrence bound)
    proven = hi == lo or last_unsat == hi - 1
    if unknown_at is not None and not proven:
        budget.exhausted = True
    if optimize_secondary:
        enc.add_probe(found.ii)
        if use_hint:
            # phase hint only at the heuristic's own II: at other IIs it misleads
            enc.hint(found)
        found = _optimise_secondary(
            enc, budget, found, [enc.guards[found.ii]], [enc.sym_guards[found.ii]], stats,
            share=secondary_share,
        )
    stats["schedule_from"] = "heuristic" if found is heur else "solver"
    stats["z3_ms"] = round((time.perf_counter() - tz) * 1000, 3)

    model = found
    from_solver = found is not heur
    if proven:
        status = "optimal"
    else:
        status = "feasible" if from_solver else "heuristic"
    ii_optimal = proven
    bound_text = f"MII {bounds.mii}" + (f", capacity-aware recurrence bound {lo}" if lo > bounds.mii else "")
    if status == "optimal":
        how = ("the heuristic schedule meets the lower bound" if model.ii == lo and not probes
               else "every smaller II proven infeasible" if model.ii > lo else "it meets the lower bound")
        message = f"II {model.ii} proven minimal: {how} ({bound_text})"
    elif status == "feasible":
        message = (f"solver budget exhausted at II {unknown_at}: II {model.ii} is feasible "
                   f"but not proven minimal ({bound_text})")
    else:
        message = (f"solver budget exhausted (unknown at II {unknown_at}) before it found a better "
                   f"schedule: using the {heur_kind} with II {model.ii} ({bound_text})")
    if optimize_secondary:
        unproven = [what for key, what in (("bytes", "buffer bytes"), ("length", "schedule length"))
                    if not stats[f"{key}_optimal"]]
        if unproven:
            message += f"; {' and '.join(unproven)} not proven minimal (budget)"
    stats.update(
        probes=probes,
        check_log=enc.log,
        z3_checks=enc.checks,
        rlimit_used=enc.rlimit_used,
        budget_exhausted=budget.exhausted,
        ii_optimal=ii_optimal,
    )
    stats["solve_ms"] = round((time.perf_counter() - t0) * 1000, 3)
    return _result(p, bounds, model, status, message, stats)


def _result(p: LoopProblem, bounds: MiiBounds, model: _Model, status: str, message: str,
            stats: dict[str, Any]) -> LoopResult:
    errors = check_schedule(p, model.ii, model.start, model.versions)
    if errors:  # an internal bug, never a user error: fail loudly
        raise AssertionError("scheduler produced an invalid schedule: " + "; ".join(errors))
    ii = model.ii
    return LoopResult(
        ii=ii,
        mii=bounds.mii,
        res_mii=dict(bounds.res_mii),
        rec_mii=bounds.rec_mii,
        binding=bounds.binding,
        status=status,
        start=list(model.start),
        stage=[s // ii for s in model.start],
        offset=[s % ii for s in model.start],
        versions=dict(model.versions),
        length=_length(p, model.start),
        buffer_bytes={b.name: model.versions[b.name] * b.size for b in p.buffers},
        message=message,
        stats=stats,
    )


def _schedule_bisect(p: LoopProblem, bounds: MiiBounds, seed: int, optimize_secondary: bool,
                     t0: float) -> LoopResult:
    """The anchor's strategy, kept for comparison (see module docstring)."""
    stats: dict[str, Any] = {"search": "bisect"}
    lo = max(t.ii for t in p.tasks)
    hi = max(sum(t.latency for t in p.tasks), sum(t.ii for t in p.tasks)) + 1
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
        best = _optimise_secondary(enc, _Budget(ANCHOR_RLIMIT, None, per_check=True), best, [], [], stats)
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
