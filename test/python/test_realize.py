"""scheduling/realize.py: the replay of a schedule's code and the schedule written from it
(the chain kernels against the simulator are in test_scheduled_ii.py)."""

from __future__ import annotations

from ascend_mlir.scheduling import Buffer, Dep, LoopProblem, Task, check_schedule, schedule_loop
from ascend_mlir.scheduling.code_timing import code_schedule
from ascend_mlir.scheduling.realize import _in_step, realize, replays


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



def _skewed_loads() -> tuple[LoopProblem, int, list[int]]:
    """Loads b and a, and a stage later their vector consumers c and d (x: a vector op of
    the first stage, so the loop is stage-skewed)."""
    p = LoopProblem(
        tasks=[Task("load b", "MTE2", 30, 5), Task("load a", "MTE2", 30, 5), Task("c", "V", 5, 5),
               Task("d", "V", 5, 5), Task("x", "V", 5, 5)],
        deps=[Dep(0, 2, 30), Dep(1, 3, 30)])
    ii, start = 100, [0, 10, 120, 130, 40]
    assert not check_schedule(p, ii, start, {})
    return p, ii, start


def test_a_carried_flag_on_its_ring_covers_only_its_own_pass():
    """Two loads (b, then a) and, a stage later, their vector consumers (c of b, then d
    of a). Insert-sync flags b -> c on a ring of two ids (the next pass's wait takes this
    pass's set) and then sees that c does not order a before d: d gets its own flag. On
    one id the next pass's wait before c would match that pass's own set, after a's load
    of this pass too, and d would wrongly be covered (unseen seed 11 on the 950: four
    MTE2 -> V flags of the code missing in its replay, written 532, ran 644)."""
    from ascend_mlir.scheduling.loop_code import code_of, kernel_shift

    p, ii, start = _skewed_loads()
    assert kernel_shift(p, 5, ii, start) == [0, 0, 1, 1, 0]
    code = code_of(p, 5, ii, start, {}, trips=16)
    flagged = sorted((code.items[src].task, code.items[dst].task)
                     for releases in code.producers.values() for src, dst, _ in releases)
    assert flagged == [(0, 2), (1, 3)]


def test_the_steady_state_has_no_straight_line_sets():
    """With its trip count the replay puts the prologue's and epilogue's sets where
    insert-sync puts them in straight-line code; the steady state is the loop's kernel alone: one more
    trip replayed costs its II (with the straight-line sets in every pass: 63 against
    36)."""
    from ascend_mlir.scheduling.realize import loop_cycles

    p, ii, start = _skewed_loads()
    steady = realize(p, 5, ii, start, {}, trips=16).ii
    assert steady * 16 == loop_cycles(p, 5, ii, start, {}, 32) - loop_cycles(p, 5, ii, start, {}, 16)


def test_the_prologue_s_loads_issue_back_to_back_under_one_set():
    """The prologue (kernel iteration 0) has both loads and hands both to the loop's c and
    d. Insert-sync plans straight-line code latest producer first, so one set after the
    second load orders both hand-offs: the loads issue back to back (their ii apart) and
    the set drains MTE2 once. With a set after each load, the first set drained MTE2
    before the second load issued, 30 cycles (unseen seed 14 on the 950, ten loads: the
    fill replayed at 3767 cycles, ran 2951; now 2927)."""
    from ascend_mlir.scheduling.loop_code import code_of
    from ascend_mlir.scheduling.realize import _Replay

    p, ii, start = _skewed_loads()
    code = code_of(p, 5, ii, start, {}, trips=4)
    replay = _Replay(code, 5, 4)
    started = replay.run()
    item = {it.task: n for n, it in enumerate(code.items) if it.task is not None}
    assert started[(0, item[1])] - started[(0, item[0])] == p.tasks[0].ii
    prologue_sets = [n for it, n in replay.straight_sets if it == 0]
    assert len(prologue_sets) == 1 and prologue_sets[0] > item[1]  # after the second load
    # the first pass's consumers wait for that set, after both loads completed
    assert started[(1, item[2])] >= started[(0, item[1])] + p.tasks[1].latency


def _replayed(p: LoopProblem, ii: int, start: list[int], versions: dict[str, int], trips: int):
    """The code of a loop of `trips` replayed (prologue, passes, epilogue): per (kernel
    iteration, item) its start, and per task its item."""
    from ascend_mlir.scheduling.loop_code import code_of
    from ascend_mlir.scheduling.realize import _Replay

    assert not check_schedule(p, ii, start, versions)
    code = code_of(p, len(p.tasks), ii, start, versions, trips=trips)
    started = _Replay(code, trips + max(code.shift), trips).run()
    return started, {it.task: n for n, it in enumerate(code.items) if it.task is not None}


def test_the_epilogue_waits_for_the_loop_s_last_ops_on_a_versioned_buffer():
    """Buffer b has two versions: the epilogue's v (iteration 1) overwrites the version the
    store of iteration -1 read, which no pass of a 2-trip loop runs. Insert-sync sees the
    loop as one item whose accesses span every version and sets the flag after it: the
    epilogue's v waits for the loop's last store (random kernel 768 on the 950: the
    epilogue's first vector op started at 925 cycles, after the loop's last store; the
    replay started it at 666, once its load was in)."""
    p = LoopProblem(
        tasks=[Task("load", "MTE2", 30, 5), Task("x", "V", 5, 5), Task("v", "V", 5, 5), Task("store", "MTE3", 40, 5)],
        deps=[Dep(0, 2, 30), Dep(2, 3, 5), Dep(3, 2, 40, distance=1, buffer="b")],
        buffers=[Buffer("b", "ub", 64)], capacity={"ub": 128}, num_stages=2)
    started, item = _replayed(p, 100, [0, 10, 130, 140], {"b": 2}, trips=2)
    # kernel iteration 1 is the loop's one pass, 2 the epilogue
    assert started[(2, item[2])] >= started[(1, item[3])] + p.tasks[3].latency


def test_the_loop_waits_for_the_prologue_s_store_of_a_buffer_it_overwrites_later():
    """Buffer b has two versions: v overwrites, two iterations later, the version the store
    read. A loop of 3 trips skewed by one stage (x) runs two passes, so no pass waits for
    that store (insert-sync knows the count). But the loop is one item of the code around
    it, whose accesses span both versions: insert-sync waits for the prologue's store
    before the loop, and the first pass's v runs after it, though its own iteration -1
    has no store (random kernel 752: the first pass's loads waited for the prologue's
    store, 1121 cycles, replayed at 575)."""
    p = LoopProblem(
        tasks=[Task("load", "MTE2", 30, 5), Task("v", "V", 5, 5), Task("store", "MTE3", 200, 5), Task("x", "V", 5, 5)],
        deps=[Dep(0, 1, 30), Dep(1, 2, 5), Dep(2, 1, 200, buffer="b"), Dep(1, 0, 5, buffer="a")],
        buffers=[Buffer("a", "ub", 64), Buffer("b", "ub", 64)], capacity={"ub": 256}, num_stages=2)
    started, item = _replayed(p, 120, [0, 40, 50, 180], {"a": 1, "b": 2}, trips=3)
    # kernel iteration 0 is the prologue, 1 the loop's first pass
    assert started[(1, item[1])] >= started[(0, item[2])] + p.tasks[2].latency


def test_a_dependence_on_a_pipe_the_chip_does_not_order_costs_its_barrier_s_cycle():
    """On the 910B two dependent vector ops have a pipe_barrier[<PIPE_V>] between them
    (chips.needs_barrier), an instruction of a cycle: the consumer starts one cycle after
    its producer completes, where the 950 (V in order) starts it at the completion."""
    from dataclasses import replace

    p = LoopProblem(
        tasks=[Task("load", "MTE2", 10, 4), Task("v1", "V", 2, 2), Task("v2", "V", 2, 2), Task("v3", "V", 2, 2),
               Task("store", "MTE3", 10, 4)],
        deps=[Dep(0, 1, 10), Dep(1, 2, 2), Dep(2, 3, 2), Dep(3, 4, 2), Dep(4, 0, 10, buffer="a")],
        buffers=[Buffer("a", "ub", 64)], capacity={"ub": 64}, conflicts=[(0, 4)])
    result = schedule_loop(p)
    ordered = realize(p, 5, result.ii, result.start, result.versions)
    fenced = realize(replace(p, barrier_pipes=frozenset({"V"})), 5, result.ii, result.start, result.versions)
    assert [ordered.start[i + 1] - ordered.start[i] for i in (1, 2)] == [2, 2]
    assert [fenced.start[i + 1] - fenced.start[i] for i in (1, 2)] == [3, 3]
    assert fenced.ii == ordered.ii + 2


def test_items_that_drift_apart_over_a_pass_are_not_in_step():
    """Unseen seed 1404 on four_ids, as replayed over 8 passes: from pass 4 to 5 the loads
    (item 0) moved 389 cycles and the stores (item 1) 489, and both moved 1417 and 1429
    from pass 4 to 7, 1028 and 940 from pass 5 to 7. The spreads of those two moves (12
    and 88) subtract to no drift; item by item the two drift 100 cycles apart in a pass."""
    started = {}
    for n, moves in enumerate(([389, 552, 476], [489, 476, 464])):
        at = 4000 + 100 * n
        started[(4, n)] = at
        for k, move in enumerate(moves):
            at += move
            started[(5 + k, n)] = at
    assert not _in_step(started, [0, 1], 4, 5, 514)
    # in step: both move alike, a cycle apart
    steady = {(p, n): 476 * p + 100 * n + (p == 5 and n == 1) for p in range(4, 8) for n in (0, 1)}
    assert _in_step(steady, [0, 1], 4, 5, 476)
