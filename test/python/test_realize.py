"""scheduling/realize.py: the replay of a schedule's code and the schedule written from it
(the chain kernels against the simulator are in test_scheduled_ii.py)."""

from __future__ import annotations

from ascend_mlir.scheduling import Buffer, Dep, LoopProblem, Task, check_schedule, schedule_loop
from ascend_mlir.scheduling.realize import code_schedule, realize, replays


def _load_store() -> LoopProblem:
    """A load into one buffer and a store of it, sharing the HBM port: the store waits for
    the load, the next load for the store (one version)."""
    return LoopProblem(
        tasks=[Task("load", "MTE2", 10, 4), Task("store", "MTE3", 10, 4)],
        deps=[Dep(0, 1, 10), Dep(1, 0, 10, buffer="a")],
        buffers=[Buffer("a", "ub", 64)], capacity={"ub": 64}, num_stages=1, conflicts=[(0, 1)],
    )


def test_the_replay_counts_each_flag_s_set_and_wait():
    """The solver's II is 20 (two latencies); the code's is 24: each hand-off is a set_flag
    once the producer completed (one cycle) and a wait_flag (one cycle) before the consumer."""
    p = _load_store()
    result = schedule_loop(p)
    assert (result.ii, result.start) == (20, [0, 10])
    run = realize(p, 2, result.ii, result.start, result.versions)
    assert run.ii == 24
    assert run.start[1] - run.start[0] == 12  # load, its set at 10, the wait at 11, the store at 12


def test_the_written_schedule_is_the_code_s_own_and_valid():
    p = _load_store()
    result = schedule_loop(p)
    written = code_schedule(p, 2, result, realize(p, 2, result.ii, result.start, result.versions))
    assert written is not None
    assert written.ii == 24
    assert written.start[0] < written.start[1]  # the body's order is kept
    assert not check_schedule(p, written.ii, written.start, written.versions)
    assert all(s == st // written.ii for s, st in zip(written.stage, written.start, strict=True))


def test_cube_loops_are_not_replayed():
    p = LoopProblem(tasks=[Task("nd2nz", "MTE2", 10, 4), Task("mmad", ("MTE1", "M"), 20, 8)], deps=[Dep(0, 1, 10)])
    assert not replays(p, 2)
    assert replays(_load_store(), 2)

