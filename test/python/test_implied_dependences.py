"""scheduling/implied.py: the dependences a path of others implies are dropped from the
solver's problem, and the problem keeps exactly its schedules (every all-pairs separation
of lat - II*dist, at every II and version count tried, is the same), on the O(L^2)
dependences of a chain kernel's body and on hand-made cases that must stay."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context

from ascend_mlir.analysis.loop_model import build_loop_model, loops_innermost_first, scheduled_loop_cost
from ascend_mlir.chips import load_chip
from ascend_mlir.diagnostics import parse_module
from ascend_mlir.dialects import UPSTREAM_DIALECTS, register_dialects
from ascend_mlir.scheduling import Buffer, Dep, LoopProblem, Task, implied, schedule_loop
from ascend_mlir.scheduling.structure import separations
from ascend_mlir.transforms.convert_tile_to_hivm import ConvertTileToHivmPass

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "e2e"))
from chains import chain_kernel  # noqa: E402


def _chain_problem(chains: int, length: int, chip: str = "ascend950") -> LoopProblem:
    module = parse_module(register_dialects(Context(), UPSTREAM_DIALECTS), chain_kernel(chains, length, trips=16), "k")
    ConvertTileToHivmPass(chip=chip).apply(Context(), module)
    index, loop = loops_innermost_first(module)[0]
    return build_loop_model(loop, load_chip(chip), scheduled_loop_cost, index).problem()


def _reduced(p: LoopProblem, monkeypatch: pytest.MonkeyPatch) -> LoopProblem:
    monkeypatch.setattr(implied, "MIN_TASKS", 0)
    return implied.without_implied(p)


def _same_separations(full: LoopProblem, reduced: LoopProblem, iis: list[int], versions: list[int]) -> None:
    for ii in iis:
        for v in versions:
            each = {b.name: v for b in full.buffers}
            a, b = separations(full, ii, each), separations(reduced, ii, each)
            assert (a is None) == (b is None), (ii, v)
            if a is not None and b is not None:
                assert np.array_equal(a, b), (ii, v)


@pytest.mark.parametrize("chains,length", [(2, 16), (1, 24)])
def test_chain_body_keeps_its_separations(chains: int, length: int, monkeypatch: pytest.MonkeyPatch) -> None:
    full = _chain_problem(chains, length)
    reduced = _reduced(full, monkeypatch)
    # a tile ping-ponged by L ops: a dependence between every two of them, O(L) kept
    assert len(full.deps) > 10 * len(reduced.deps)
    assert len(reduced.deps) <= 2 * len(full.tasks)
    assert set(reduced.deps) <= set(full.deps)
    _same_separations(full, reduced, [1, 50, 300, 758, 2000], [1, 2])


def test_small_problems_are_left_as_they_are() -> None:
    p = _chain_problem(2, 16)
    assert len(p.tasks) <= implied.MIN_TASKS
    assert implied.without_implied(p) is p


def _tasks(n: int) -> list[Task]:
    return [Task(f"t{i}", pipe="V", latency=10, ii=2) for i in range(n)]


def test_a_longer_dependence_than_its_path_stays(monkeypatch: pytest.MonkeyPatch) -> None:
    p = LoopProblem(tasks=_tasks(3), deps=[Dep(0, 1, 10), Dep(1, 2, 10), Dep(0, 2, 25), Dep(0, 2, 20, distance=0)])
    kept = _reduced(p, monkeypatch).deps
    # 25 > 10 + 10: kept; its repeat at 20 is implied by it
    assert Dep(0, 2, 25) in kept and Dep(0, 2, 20) not in kept
    assert Dep(0, 1, 10) in kept and Dep(1, 2, 10) in kept


def test_carried_dependences_need_the_same_buffer_and_no_larger_distance(monkeypatch: pytest.MonkeyPatch) -> None:
    deps = [
        Dep(0, 1, 10), Dep(1, 2, 10),
        Dep(2, 0, 5, distance=1),            # kept: nothing else reaches 0 from 2
        Dep(1, 0, 3, distance=1),            # implied: 1 -> 2 -> 0 at distance 1, 15 >= 3
        Dep(1, 0, 3, distance=2),            # implied too (a larger distance)
        Dep(2, 1, 4, buffer="b"),            # kept: the only one with buffer b
        Dep(2, 0, 1, buffer="c"),            # kept: no other dependence of buffer c
        Dep(2, 1, 0, distance=1),            # implied: 2 -> 0 (d 1) -> 1 is 15 >= 0
    ]
    p = LoopProblem(tasks=_tasks(3), deps=deps, buffers=[Buffer("b", "ub", 64), Buffer("c", "ub", 64)],
                    num_stages=3)
    kept = _reduced(p, monkeypatch).deps
    assert kept == [deps[0], deps[1], deps[2], deps[5], deps[6]]
    _same_separations(p, replace(p, deps=kept), [1, 7, 13, 40], [1, 2, 3])


def test_out_of_order_distance_zero_dependences_are_not_touched(monkeypatch: pytest.MonkeyPatch) -> None:
    p = LoopProblem(tasks=_tasks(3), deps=[Dep(0, 1, 1), Dep(1, 2, 1), Dep(0, 2, 1), Dep(2, 1, 0)])
    assert _reduced(p, monkeypatch) is p


def test_same_ii_and_status_on_a_chain_body(monkeypatch: pytest.MonkeyPatch) -> None:
    full = _chain_problem(1, 24)
    before = schedule_loop(full, optimize_secondary=False)
    monkeypatch.setattr(implied, "MIN_TASKS", 0)
    after = schedule_loop(full, optimize_secondary=False)
    assert (after.ii, after.status) == (before.ii, before.status)
