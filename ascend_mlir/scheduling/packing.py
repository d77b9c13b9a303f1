"""A saturated pipe packed in body order: one cheap solver probe at the lower bound.

When the lower bound on the II equals the busy time of one pipe (the sum of its
tasks' `pipe_time`), every schedule at that II keeps the pipe busy without a hole.
Iterative modulo scheduling, placing tasks one at a time at their earliest slot,
rarely packs it (a loop of 4 chains of 16 ops: IMS ends at II 834 against a bound
of 758, and z3 answers unknown on every probe of the full model for the whole
50M rlimit), while the solver finds such a schedule at once when that pipe's order
is given. This probe keeps every constraint of the ordinary probe and adds one
packing: the pipe's tasks back to back in body order, all in stage 0. A model is
a schedule of the whole problem at the bound (repaired like every probe's model,
then checked), hence optimal; unsat or unknown says nothing about the II.
A clique of the HBM port (loads and stores, two pipes) was tried the same way and
is not done: on 4 chains of 12 ops on the 910B (bound 736) the port packed in body
order is unsat, and grouped by pipe unknown within the cap.
"""

from __future__ import annotations

from typing import Any

import z3

from .bounds import check_schedule
from .problem import LoopProblem

# a probe of its own, capped: one of 0.2M on the 66-task loop above
PACKED_RLIMIT = 1_000_000


def saturated_pipe(p: LoopProblem, ii: int) -> str | None:
    """The first pipe (by name) whose tasks keep it busy for exactly `ii` cycles."""
    busy: dict[str, int] = {}
    for t in p.tasks:
        for pipe in t.pipes:
            busy[pipe] = busy.get(pipe, 0) + t.pipe_time
    return next((pipe for pipe in sorted(busy) if busy[pipe] == ii), None)


def packing_constraints(p: LoopProblem, pipe: str) -> list[str]:
    """SMT-LIB terms: the tasks of `pipe` back to back from offset 0 in body order,
    in stage 0 (the encoder's `r<i>` offsets and `k<i>` stages)."""
    terms, offset = [], 0
    for i, t in enumerate(p.tasks):
        if pipe in t.pipes:
            terms.append(f"(= r{i} {offset})(= k{i} 0)")
            offset += t.pipe_time
    return terms


def packed_schedule(search: Any, ii: int) -> Any:
    """The model (smt_encoding._Model) of the packed probe at `ii` on `search`'s problem
    (a modulo._IncrementalSearch), or None: no saturated pipe, refuted, unsat,
    unknown within PACKED_RLIMIT, or a model that is not a schedule."""
    from .smt_encoding import _Encoder

    p: LoopProblem = search.p
    pipe = saturated_pipe(p, ii)
    if pipe is None or search.refute(ii):
        return None
    enc = _Encoder(p, search.seed, search.struct)
    enc.assert_global()
    enc.add_probe(ii, search.windows[ii])
    enc.solver.from_string(f"(declare-const packed Bool)(assert (=> packed (and {' '.join(packing_constraints(p, pipe))})))")
    sub = search.budget.child(1.0, PACKED_RLIMIT)
    res = enc.check(sub, [enc.guards[ii], z3.Bool("packed", enc.ctx)], f"ii={ii} ({pipe} packed, own solver)")
    exhausted = search.budget.exhausted
    search.budget.charge(sub)
    search.budget.exhausted = exhausted  # a capped unknown does not end the search
    search.side_log += enc.log
    search.side_rlimit += enc.rlimit_used
    if res != z3.sat:
        return None
    model = enc.read_model(ii)
    return None if check_schedule(p, ii, model.start, model.versions) else model
