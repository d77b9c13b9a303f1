"""The replay's and IMS's fast paths give the answers of the plain ones (they exist for
speed only: a loop of 256 ops spent 7 s replaying and 5 s placing): the replay's pruned
waits (`_Replay._steady_waits`) and the vectorised slot search (`_Placement.free_slot`
from VECTOR_CONFLICTS conflicts)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ascend_mlir.scheduling import Dep, LoopProblem, Task, ims, realize, schedule_loop


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
        code = realize._code(p, len(p.tasks), result.ii, result.start, result.versions, trips=trips)
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
