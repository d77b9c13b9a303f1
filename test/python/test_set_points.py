"""One set point per publishing pipe in the solver's problem (issue 18 item 1,
scheduling/set_points.py): the IR-free model, and that the code insert-sync emits for a
gathered loop has the one set point per drained pipe that the schedule reserved."""

from __future__ import annotations

import sys
from pathlib import Path

from xdsl.dialects import scf

from ascend_mlir.analysis.latency_model import op_pipes
from ascend_mlir.dialects import ascend, hivm
from ascend_mlir.scheduling import Dep, LoopProblem, Task, check_schedule, schedule_loop
from ascend_mlir.scheduling.set_points import gathered, keeps_points

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "e2e"))
import run as e2e  # noqa: E402
from chains import chain_kernel  # noqa: E402


def _two_loads() -> LoopProblem:
    """Two loads (MTE2), each read by its own vector op (V), both results stored (MTE3)."""
    tasks = [Task("ld0", "MTE2", 183, 104), Task("ld1", "MTE2", 183, 104), Task("v0", "V", 32, 32),
             Task("v1", "V", 32, 32), Task("st0", "MTE3", 252, 80), Task("st1", "MTE3", 252, 80)]
    deps = [Dep(0, 2, 183), Dep(1, 3, 183), Dep(2, 4, 32), Dep(3, 5, 32)]
    return LoopProblem(tasks=tasks, deps=deps)


def test_every_consumer_waits_for_one_point_after_all_releasing_tasks():
    p = gathered(_two_loads(), 6, frozenset({"MTE2"}))
    assert len(p.tasks) == 7 and p.tasks[6].pipes == ("S",)
    added = p.deps[4:]
    # linear in releasing tasks + consumers, not their product
    assert sorted((d.src, d.dst, d.latency) for d in added) == [(0, 6, 183), (1, 6, 183), (6, 2, 0), (6, 3, 0)]
    result = schedule_loop(p)
    assert not check_schedule(p, result.ii, result.start, result.versions)
    # each vector op starts after both loads have completed
    for v in (2, 3):
        assert result.start[v] >= max(result.start[0], result.start[1]) + 183


def test_pipes_without_a_drain_or_one_releasing_task_are_left_alone():
    p = _two_loads()
    assert gathered(p, 6, frozenset()) is p
    assert gathered(p, 6, frozenset({"MTE3"})) is p  # stores release nothing here


def test_a_consumer_that_leads_to_a_releasing_task_keeps_its_own_set():
    # ld1 reads what v0 wrote (same pass): one set after both loads cannot precede v0
    p = _two_loads()
    p = LoopProblem(tasks=p.tasks, deps=[*p.deps, Dep(2, 1, 32)])
    assert gathered(p, 6, frozenset({"MTE2"})) is p


def test_keeps_points_checks_the_plain_schedule_against_the_points():
    p = _two_loads()
    g = gathered(p, 6, frozenset({"MTE2"}))
    # v0 right after ld0 completes, before ld1 has: the plain schedule spreads the sets
    spread = [0, 104, 183, 287, 215, 319]
    assert not check_schedule(p, 500, spread, {})
    assert not keeps_points(g, 6, 500, spread, {})
    waiting = [0, 104, 287, 319, 351, 431]
    assert not check_schedule(p, 500, waiting, {})
    assert keeps_points(g, 6, 500, waiting, {})


def _set_points(loop, pipe: str) -> int:
    """Places in the loop body where sets of `pipe` stand: a set with an op of `pipe`
    before it since the previous set of `pipe` starts a new point."""
    points, issued = 0, True
    for op in loop.body.block.ops:
        if isinstance(op, hivm.SetFlagOp):
            if op.set_pipe.pipe_name == pipe and issued:
                points, issued = points + 1, False
        elif ascend.task_of(op) is not None and pipe in op_pipes(op):
            issued = True
    return points


def test_a_wide_loop_has_one_set_point_per_drained_pipe():
    """4 chains of 8 ops: the loads' sets (MTE2, a drain of 79 cycles each) and the stores'
    (MTE3, 172) stand at one point each in the steady-state loop, as scheduled; before
    the points were gathered there were 4 and 4 and the loop ran 1.66x its schedule."""
    module = e2e._compiled(chain_kernel(4, trips=16), "chains4x8")
    loops = [o for o in module.walk() if isinstance(o, scf.ForOp) and ascend.loop_of(o) is not None]
    assert len(loops) == 1
    assert _set_points(loops[0], "MTE2") == 1
    assert _set_points(loops[0], "MTE3") == 1


def test_a_sequential_gathered_schedule_does_not_replace_an_overlapped_plain_one(monkeypatch):
    """bench random kernel 0 (4 chains, 5 trips, one stage): the gathered model's solve ends
    in the sequential schedule (II 2142 against the plain 1472) and ran 10763 cycles
    against the plain schedule's 8890; the plain schedule is kept then."""
    import ascend_mlir.transforms.modulo_schedule as modulo_schedule
    from chains import random_kernel
    from test_never_slower import _cycles

    text = random_kernel(0)
    ours = _cycles(text, False)
    monkeypatch.setattr(modulo_schedule, "GATHER_MAX_TASKS", 0)
    assert ours == _cycles(text, False)
