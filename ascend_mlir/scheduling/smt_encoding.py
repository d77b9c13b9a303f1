"""The z3 encoding of one loop problem (moved out of modulo.py, whose search drives it):
`_Encoder` poses a problem as SMT-LIB text in a private z3 context, `_Model` is a
schedule read back, `polish` its exact post-passes, `model_int` reads an integer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import z3

from .bounds import (
    compact,
    max_versions,
)
from .budget import Budget as _Budget
from .ims import minimal_versions
from .structure import Structure, Windows, analyse, propagate
from .problem import LoopProblem

# a wall-clock backstop for one check when the budget gives no time limit: the rlimit
# (which keeps results reproducible) is what bounds a check, but z3 does not count it
# everywhere (random kernel 757 on four_ids.toml: one check of a gathered solve ran for
# more than 5 minutes under the rlimit). Far above any check that counts it (a whole
# compile takes seconds), so it changes no result that the rlimit decides.
BACKSTOP_MS = 30_000


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

    def __init__(self, p: LoopProblem, seed: int, struct: Structure | None = None):
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
        self.full_guards: dict[int, z3.BoolRef] = {}
        self.struct = analyse(p) if struct is None else struct
        self._aux = 0

    def assert_global(self) -> None:
        """Constraints that do not depend on II."""
        p = self.p
        out = []
        for i in range(len(p.tasks)):
            out.append(f"(assert (>= r{i} 0))")
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
        """Every constraint that mentions II, for one fixed II, as SMT-LIB terms
        (the plain model without structure, for search="bisect")."""
        p = self.p
        cs: list[str] = []
        kmax = self._stage_bound(ii)
        for i, t in enumerate(p.tasks):
            cs.append(f"(<= r{i} {ii - 1})")
            cs.append(f"(>= k{i} 0)")
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
        arcs = p.pair_arcs()
        for i, j in self.pairs:
            a, b = arcs[(i, j)]
            o = f"o{i}_{j}"
            # o: i before j in the window, j ends before i's next instance
            cs.append(f"(=> {o} (and (>= (- r{j} r{i}) {a}) (>= (- r{i} r{j}) {_num(b - ii)})))")
            cs.append(f"(=> (not {o}) (and (>= (- r{i} r{j}) {b}) (>= (- r{j} r{i}) {_num(a - ii)})))")
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

    def add_probe(self, ii: int, windows: Windows | None = None) -> None:
        """Assert the constraints of `ii` under three fresh guard literals.

        `at<II>`: what decides feasibility: offsets in [0, II), the dependences
        inside strongly connected components, the resource pairs, and the
        separations implied by the dependences (`windows`, redundant but they
        bound every stage relative to its component's root).  Resource pairs
        inside a component whose separation admits one wrap count are linear.
        `full<II>`: dependences between components, stage bound, length.
        `pin<II>`: symmetry breaking, sound for feasibility and buffer bytes
        (not for length): one offset at 0 (rotation), the stage of each
        component's root at 0 (components shift by whole IIs), interchangeable
        tasks in index order in the window.
        """
        if ii in self.guards:
            return
        st = self.struct
        windows = windows if windows is not None else propagate(
            self.p, ii, max_versions(self.p), self.pairs, st)
        g, fg, sg = f"at{ii}", f"full{ii}", f"pin{ii}"
        text = [f"(declare-const {g} Bool)(declare-const {fg} Bool)(declare-const {sg} Bool)"]
        text += [f"(assert (=> {g} {c}))" for c in self.core_constraints(ii, windows)]
        text += [f"(assert (=> {fg} {c}))" for c in self.outer_constraints(ii)]
        pins = [f"(= r{st.pinned} 0)"] + [f"(= k{r} 0)" for r in st.roots]
        pins += [f"o{a}_{b}" for a, b in (*st.twins, *st.component_order) if (a, b) in self.order]
        text += [f"(assert (=> {sg} {c}))" for c in pins]
        self.solver.from_string("".join(text))
        self.guards[ii] = z3.Bool(g, self.ctx)
        self.full_guards[ii] = z3.Bool(fg, self.ctx)
        self.sym_guards[ii] = z3.Bool(sg, self.ctx)

    def _dep_constraint(self, ii: int, e: int) -> str:
        d = self.p.deps[e]
        u, v = d.src, d.dst
        rhs = d.latency - ii * d.distance
        if u == v:
            if d.buffer is None:
                return "true" if rhs <= 0 else "false"
            return f"(>= {_lin([(ii, f'b{self.bufidx[d.buffer]}')])} {_num(rhs)})"
        terms = [(ii, f"k{v}"), (1, f"r{v}"), (-ii, f"k{u}"), (-1, f"r{u}")]
        if d.buffer is not None:
            terms.append((ii, f"b{self.bufidx[d.buffer]}"))
        return f"(>= {_lin(terms)} {_num(rhs)})"

    def core_constraints(self, ii: int, windows: Windows) -> list[str]:
        p, st = self.p, self.struct
        cs = [f"(<= r{i} {ii - 1})" for i in range(len(p.tasks))]
        cs += [self._dep_constraint(ii, e) for e in st.internal]
        dmat = windows.dmat
        if dmat is not None:
            # start_i - start_root within the separations: bounds every stage
            for i in range(len(p.tasks)):
                root = st.roots[st.comp[i]]
                if root == i:
                    continue
                diff = _lin([(ii, f"k{i}"), (1, f"r{i}"), (-ii, f"k{root}"), (-1, f"r{root}")])
                cs.append(f"(>= {diff} {_num(int(dmat[root, i]))})")
                cs.append(f"(<= {diff} {_num(-int(dmat[i, root]))})")
        arcs = p.pair_arcs()
        for i, j in self.pairs:
            a, b = arcs[(i, j)]
            wraps = windows.wraps.get((i, j))
            if wraps is not None and len(wraps) == 1:
                m = wraps[0]
                diff = _lin([(ii, f"k{j}"), (1, f"r{j}"), (-ii, f"k{i}"), (-1, f"r{i}")])
                cs.append(f"(>= {diff} {_num(m * ii + a)})")
                cs.append(f"(<= {diff} {_num((m + 1) * ii - b)})")
                continue
            o = f"o{i}_{j}"
            # o: i before j in the window, j ends before i's next instance
            cs.append(f"(=> {o} (and (>= (- r{j} r{i}) {a}) (>= (- r{i} r{j}) {_num(b - ii)})))")
            cs.append(f"(=> (not {o}) (and (>= (- r{i} r{j}) {b}) (>= (- r{j} r{i}) {_num(a - ii)})))")
        return cs

    def outer_constraints(self, ii: int) -> list[str]:
        p, st = self.p, self.struct
        internal = set(st.internal)
        kmax = self._stage_bound(ii)
        cs = []
        for i, t in enumerate(p.tasks):
            cs.append(f"(>= k{i} 0)")
            cs.append(f"(<= k{i} {kmax})")
            cs.append(f"(>= (- length {_lin([(ii, f'k{i}'), (1, f'r{i}')])}) {t.latency})")
        cs += [self._dep_constraint(ii, e) for e in range(len(p.deps)) if e not in internal]
        return cs

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
              share: float = 1.0, cap: int | None = None) -> z3.CheckSatResult:
        """One check under the budget; `share` < 1 caps this check at that part of
        what remains, `cap` at that rlimit (an unknown from either does not exhaust
        the budget)."""
        s = self.solver
        if budget.spent():
            budget.exhausted = True
            self.log.append((what, "skipped"))
            return z3.unknown
        limit = budget.rlimit
        if limit is not None and share < 1.0:
            limit = max(1, int(limit * share))
        if cap is not None:
            limit = cap if limit is None else min(limit, cap)
        s.set("rlimit", 0 if limit is None else limit)
        ms = budget.remaining_ms()
        if ms is not None and share < 1.0:
            ms = int(ms * share)
        s.set("timeout", BACKSTOP_MS if ms is None else max(1, ms))
        before = self._rlimit_count()
        res = s.check(*assumptions)
        used = self._rlimit_count() - before
        self.rlimit_used += used
        if budget.rlimit is not None and not budget.per_check:
            budget.rlimit -= used
        self.checks += 1
        self.log.append((what, str(res)))
        backstop = ms is None and res == z3.unknown and s.reason_unknown() in ("timeout", "canceled")
        if res == z3.unknown and (share >= 1.0 or budget.spent() or backstop):
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
            ii * model_int(m, k) + model_int(m, r)
            for k, r in zip(self.k, self.r, strict=False)
        ]
        versions = {name: model_int(m, v) for name, v in self.buf.items()}
        return polish(self.p, _Model(ii, start, versions))


def polish(p: LoopProblem, model: _Model) -> _Model:
    """Fewest versions the schedule allows, then least stages for its offsets.

    Both are exact post-passes (no solver): the model stays valid and neither
    bytes nor length can get worse.  The solver only has to improve on this.
    """
    ii, start, versions = model.ii, model.start, model.versions
    # a probe's model satisfies the dependences inside components only (and may
    # have negative stages): the least stages for its offsets repair the rest
    start = compact(p, ii, start, versions)
    for _ in range(2):
        versions = minimal_versions(p, ii, start, versions)
        start = compact(p, ii, start, versions)
    return _Model(ii, start, versions)


def model_int(model: z3.ModelRef, expr: z3.ExprRef) -> int:
    """The integer value of `expr` in `model` (z3's stubs type eval() as any expression)."""
    return cast(z3.IntNumRef, model.eval(expr, model_completion=True)).as_long()
