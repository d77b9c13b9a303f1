"""The replay's and IMS's fast paths give the answers of the plain ones (they exist for
speed only: a loop of 256 ops spent 7 s replaying and 5 s placing): the replay's pruned
waits (`_Replay._steady_waits`), the vectorised slot search (`_Placement.free_slot`
from VECTOR_CONFLICTS conflicts), the slots of the pipes' reservation table
(`ims._Occupancy`) and insert-sync's one run of a block for the flags of a period
(`sync_planning._SetsAfterWaits`)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context

from ascend_mlir.diagnostics import parse_module
from ascend_mlir.dialects import UPSTREAM_DIALECTS, register_dialects
from ascend_mlir.scheduling import Dep, LoopProblem, Task, code_flags, ims, loop_code, realize, schedule_loop
from ascend_mlir.transforms.ascend_compile import AscendCompilePass

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "e2e"))
from chains import chain_kernel  # noqa: E402


def _all_waits(self):
    """No wait left out: every item's own list, used in every pass."""
    return list(self.code.waits), [10**9] * len(self.code.waits)


def _dense(seed: int, n: int) -> LoopProblem:
    """A loop whose ops wait for many earlier ops of one pipe (half of all pairs, and
    some carried back one or two iterations): what the pruning leaves out."""
    rng = random.Random(seed)
    pipes = ["MTE2"] + [rng.choice(["V", "V", "MTE2", "MTE3"]) for _ in range(n - 2)] + ["MTE3"]
    tasks = []
    for i, pipe in enumerate(pipes):
        ii = rng.randint(2, 10)
        tasks.append(Task(f"t{i}", pipe, max(ii, rng.randint(4, 40)), ii))
    deps = []
    for j in range(n):
        for i in range(j):
            if rng.random() < 0.5:
                deps.append(Dep(i, j, tasks[i].latency))
            if rng.random() < 0.15:
                deps.append(Dep(j, i, rng.randint(1, 10), distance=rng.randint(1, 2)))
    port = [(i, j) for i in range(n) for j in range(i + 1, n) if {pipes[i], pipes[j]} == {"MTE2", "MTE3"}]
    return LoopProblem(tasks=tasks, deps=deps, buffers=[], capacity={}, num_stages=2, conflicts=port)


@pytest.mark.parametrize("seed", range(8))
def test_pruned_waits_replay_the_same_starts(monkeypatch, seed):
    """Every item's start in every pass, with and without the pruning, in a loop of many
    passes and in the code of loops of 3 and 6 trips (a prologue and epilogue)."""
    p = _dense(seed, 24)
    result = schedule_loop(p, optimize_secondary=False, rlimit=100_000)
    pruned = 0
    for trips in (None, 3, 6):
        code = loop_code.code_of(p, len(p.tasks), result.ii, result.start, result.versions, trips=trips)
        passes = 8 if trips is None else trips + 2
        fast = realize._Replay(code, passes, trips)
        fast_starts = fast.run()
        pruned += sum(map(len, code.waits)) - sum(map(len, fast.steady_waits))
        with monkeypatch.context() as m:
            m.setattr(realize._Replay, "_steady_waits", _all_waits)
            assert realize._Replay(code, passes, trips).run() == fast_starts
    assert pruned > 0  # the check means something: waits were left out


def test_vectorised_free_slot_finds_the_plain_sweep_s_slot():
    rng = random.Random(7)
    for _ in range(400):
        n, ii = rng.randint(2, 90), rng.randint(1, 200)
        conflict: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
        for i in range(n):
            for j in range(i + 1, n):
                if rng.random() < 0.7:
                    a, b = rng.randint(1, ii), rng.randint(1, ii)
                    conflict[i].append((j, a, b))
                    conflict[j].append((i, b, a))
        tasks = [Task(f"t{k}", "V", 1, 1) for k in range(n)]
        problem = LoopProblem(tasks=tasks, deps=[], buffers=[], capacity={}, num_stages=1)
        state = ims._Placement(problem, ii, [[]] * n, [[]] * n, conflict)
        for k in range(n):
            if rng.random() < 0.7:
                state.put(k, rng.randint(0, 5 * ii))
        op, estart = rng.randrange(n), rng.randint(0, 3 * ii)
        arrays = tuple(np.array(col, dtype=np.int64) for col in zip(*conflict[op])) if conflict[op] else (
            np.zeros(0, dtype=np.int64),) * 3
        for best_fit in (False, True):
            state.best_fit = best_fit
            state.conflict_at[op] = None
            plain = state.free_slot(op, estart)
            state.conflict_at[op] = arrays
            assert state.free_slot(op, estart) == plain


def _pipes_and_port(rng: random.Random) -> LoopProblem:
    """Tasks on one or two of the three pipes, some holding them past their issue, loads
    and stores sharing a port (all pairs, or some: where `_Occupancy` must sweep), some
    of them as drains that share none, and dependences forward and carried."""
    n = rng.randint(2, 30)
    tasks = []
    for k in range(n):
        pipes: list[str] = sorted(rng.sample(["MTE2", "V", "MTE3"], rng.choice([1, 1, 1, 2])))
        issue = rng.randint(1, 20)
        tasks.append(Task(f"t{k}", tuple(pipes) if len(pipes) > 1 else pipes[0], issue + rng.randint(0, 30), issue,
                          hold=rng.choice([0, 0, rng.randint(0, 10)])))
    # a task of MTE2 or MTE3 that uses no port: a flag drain holds its pipe only
    drains = {k for k in range(n) if rng.random() < 0.15}
    loads = [i for i, t in enumerate(tasks) if "MTE2" in t.pipes and i not in drains]
    stores = [i for i, t in enumerate(tasks) if "MTE3" in t.pipes and i not in drains]
    share = 1.0 if rng.random() < 0.7 else 0.5
    conflicts = [(a, b) for a in loads for b in stores if a != b and rng.random() < share] if rng.random() < 0.7 else []
    deps = []
    for _ in range(rng.randint(0, 2 * n)):
        a, b = rng.randrange(n), rng.randrange(n)
        deps.append(Dep(a, b, tasks[a].latency, 0 if a < b else 1))
    return LoopProblem(tasks=tasks, deps=deps, buffers=[], capacity={}, num_stages=3, conflicts=conflicts)


def _three_schedules(p: LoopProblem, ii: int) -> tuple:
    """IMS first fit, IMS best fit and the list schedule of `p` at `ii`."""
    return (ims.iterative_modulo_schedule(p, ii, {}, 6), ims.iterative_modulo_schedule(p, ii, {}, 6, best_fit=True),
            ims.list_modulo_schedule(p, ii, {}))


def test_the_reservation_table_places_as_the_sweep(monkeypatch):
    rng = random.Random(3)
    fast_paths = 0
    for _ in range(600):
        p = _pipes_and_port(rng)
        longest = max(t.pipe_time for t in p.tasks)
        ii = rng.randint(longest, 3 * longest + 40)
        fast = _three_schedules(p, ii)
        table = ims._Occupancy(p, ii, ims._conflict_lists(p))
        fast_paths += sum(port is not None for port in table.port)
        with monkeypatch.context() as m:
            m.setattr(ims._Placement, "occupy", lambda self, p: None)
            assert _three_schedules(p, ii) == fast
    assert fast_paths > 0  # the table answered, not only the sweep


def test_a_drain_on_a_pipe_of_the_port_leaves_the_port_to_the_table(monkeypatch):
    """A flag drain holds MTE3 but not the HBM port its loads and stores share: the loads
    and stores still get the reservation table's slots (a ring of 248 ops swept them
    all, a third of its compile), and it places them as the sweep does."""
    tasks = [Task("load0", "MTE2", 40, 20), Task("load1", "MTE2", 40, 20), Task("store0", "MTE3", 30, 16),
             Task("store1", "MTE3", 30, 16), Task("v", "V", 12, 12), Task("drain:MTE3", "MTE3", 25, 25)]
    deps = [Dep(0, 4, 40, 0), Dep(1, 4, 40, 0), Dep(4, 2, 12, 0), Dep(4, 3, 12, 0), Dep(2, 0, 30, 1)]
    p = LoopProblem(tasks=tasks, deps=deps, buffers=[], capacity={}, num_stages=3,
                    conflicts=[(a, b) for a in (0, 1) for b in (2, 3)])
    table = ims._Occupancy(p, 120, ims._conflict_lists(p))
    assert table.port == [("MTE3",), ("MTE3",), ("MTE2",), ("MTE2",), (), ()]
    fast = _three_schedules(p, 120)
    assert fast[0] is not None
    monkeypatch.setattr(ims._Placement, "occupy", lambda self, p: None)
    assert _three_schedules(p, 120) == fast


def _random_blocks(seed: int, carried_back: bool):
    """300 random blocks of three pipes and their flags at their producers, as the
    replay's block model (`code_flags.flag_model`) and the flags' keys: each flag waited
    before a later item (`carried_back`: also carried one or two passes to an earlier one)."""
    from ascend_mlir.analysis.flag_sets import Release
    from ascend_mlir.analysis.sync_plan import BlockModel

    rng = random.Random(seed)
    for _ in range(300):
        n = rng.randint(2, 12)
        pipes = [rng.choice(["MTE2", "V", "MTE3"]) for _ in range(n)]
        releases = []
        for _ in range(rng.randint(1, 8)):
            a, b = rng.sample(range(n), 2) if carried_back else sorted(rng.sample(range(n), 2))
            if pipes[a] != pipes[b]:
                distance = (rng.choice([0, 1, 2]) if a < b else rng.choice([1, 2])) if carried_back else rng.choice([0, 0, 1])
                releases.append(Release(a, b, pipes[a], pipes[b], distance))
        if releases:
            points = [r.src for r in releases]
            yield (code_flags.flag_model(BlockModel([frozenset([pp]) for pp in pipes]), releases, points),
                   sorted(code_flags._flag_keys(releases, points)))


def test_one_run_answers_set_after_wait_for_every_flag():
    """`sync_plan.sets_after_waits` (one run of the block for all the flags the replay
    asks about) answers as `set_after_wait` does one flag at a time, on random blocks of
    three pipes with flags set after one item and waited before a later one."""
    from ascend_mlir.analysis.sync_plan import set_after_wait, sets_after_waits

    answered = set()
    for model, keys in _random_blocks(11, carried_back=False):
        flags = range(len(keys))
        for period in (1, 2):
            batch = sets_after_waits(model, code_flags._flag_of, set(flags), period)
            assert batch == {f for f in flags if set_after_wait(model, code_flags._flag_of, f, period)}
            answered |= {len(batch) < len(flags)}
    assert answered == {True, False}  # both answers came up


def test_one_run_answers_set_after_own_wait_for_every_carried_flag():
    """With `distances`, `sets_after_waits` answers as `set_after_own_wait` does (the
    replay's copy of insert-sync's `_zero_trip_credits`), on random blocks whose carried
    flags are set after their consumers, over one and two passes."""
    from ascend_mlir.analysis.sync_plan import set_after_own_wait, sets_after_waits

    answered = set()
    for model, keys in _random_blocks(12, carried_back=True):
        distances = {f: key[3] for f, key in enumerate(keys)}
        for period in (1, 2, 3):
            flags = {f for f in distances if 1 <= distances[f] <= period}
            batch = sets_after_waits(model, code_flags._flag_of, flags, period, distances)
            assert batch == {f for f in flags
                             if set_after_own_wait(model, code_flags._flag_of, f, distances[f], period)}
            answered |= {len(batch) < len(flags)}
    assert answered == {True, False}


def test_a_problem_replays_a_schedule_once_and_answers_as_a_fresh_problem(monkeypatch):
    """`LoopProblem.remembered`: a second ask of the same schedule's code, steady state or
    cycles is not replayed again, and answers what an equal problem replaying it afresh
    does; another trip count or problem is replayed."""
    p = _dense(3, 16)
    result = schedule_loop(p, optimize_secondary=False, rlimit=100_000)
    args = (len(p.tasks), result.ii, result.start, result.versions)
    built = []
    written = loop_code._written_code
    monkeypatch.setattr(loop_code, "_written_code", lambda *a: built.append(a[0]) or written(*a))
    first = realize.realize(p, *args), realize.loop_cycles(p, *args, trips=5)
    count = len(built)
    assert count > 0
    again = realize.realize(p, *args), realize.loop_cycles(p, *args, trips=5)
    assert len(built) == count  # nothing built again
    assert again == first and again[0].start is not first[0].start  # each caller its own list
    fresh = LoopProblem(tasks=p.tasks, deps=p.deps, buffers=p.buffers, capacity=p.capacity,
                        num_stages=p.num_stages, conflicts=p.conflicts)
    assert (realize.realize(fresh, *args), realize.loop_cycles(fresh, *args, trips=5)) == first
    assert len(built) > count and built[-1] is fresh
    realize.loop_cycles(p, *args, trips=6)
    assert built[-1] is p


@pytest.mark.parametrize(("kernel", "asked", "plan_changes", "most_runs"), [
    (chain_kernel(6, 4, trips=3), 3, 2, 3),  # each of its 3 flags fails: the plan changes twice
    (chain_kernel(10, 3, trips=3), 71, 0, 2),  # 71 flags asked, answered from 2 runs
], ids=["chains6x4", "chains10x3"])
def test_one_run_per_period_plans_the_flags_as_a_run_per_flag(kernel, asked, plan_changes, most_runs, monkeypatch):
    """insert-sync's `_no_double_set` asks whether each flag's sets come after its waits
    from one run of the block per period (`sync_planning._SetsAfterWaits`), made again
    once a flag that fails changes the plan: the kernel compiles to what one run per flag
    (`set_after_wait`) gives."""
    from ascend_mlir.analysis.sync_plan import set_after_wait
    from ascend_mlir.transforms import sync_planning

    calls, runs, forgotten = [0], [0], [0]
    batched, forget = sync_planning._SetsAfterWaits.__call__, sync_planning._SetsAfterWaits.forget

    def counted(self, flag):
        calls[0] += 1
        runs[0] += flag.period not in self.answers
        return batched(self, flag)

    def counted_forget(self):
        forgotten[0] += 1
        forget(self)

    monkeypatch.setattr(sync_planning._SetsAfterWaits, "__call__", counted)
    monkeypatch.setattr(sync_planning._SetsAfterWaits, "forget", counted_forget)
    ours = _compiled(kernel)
    assert (calls[0], forgotten[0]) == (asked, plan_changes) and 0 < runs[0] <= most_runs

    def one_run_per_flag(self, flag):
        return set_after_wait(sync_planning._model(self.plan), sync_planning._carried_key, id(flag), flag.period)

    monkeypatch.setattr(sync_planning._SetsAfterWaits, "__call__", one_run_per_flag)
    assert _compiled(kernel) == ours


def _compiled(text: str) -> str:
    module = parse_module(register_dialects(Context(), UPSTREAM_DIALECTS), text, "kernel.mlir")
    AscendCompilePass(chip="ascend950").apply(Context(), module)
    return str(module)
