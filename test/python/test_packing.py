"""The packed probe (scheduling/packing.py): a loop whose lower bound saturates one pipe
gets a schedule at the bound when that pipe's tasks fit back to back in body order.

Kernels: `bench/e2e/chains.py`'s chain kernels of 4 chains x 16 ops (the shape where IMS
ends at II 834 against a bound of 758 and z3 answered unknown for the whole budget) and
the same on the 910B (not tuned to).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from xdsl.context import Context

from ascend_mlir.analysis.loop_model import loop_problems
from ascend_mlir.diagnostics import parse_module
from ascend_mlir.dialects import register_dialects
from ascend_mlir.scheduling import LoopProblem, Task, check_schedule, schedule_loop
from ascend_mlir.scheduling.packing import packing_constraints, saturated_pipe
from ascend_mlir.transforms.convert_tile_to_hivm import ConvertTileToHivmPass
from ascend_mlir.transforms.estimate_latency import annotate_latencies, module_chip

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "e2e"))
from chains import chain_kernel  # noqa: E402


def _loop(chains: int, length: int, chip: str) -> LoopProblem:
    ctx = register_dialects(Context())
    module = parse_module(ctx, chain_kernel(chains, length, trips=16), "chains")
    ConvertTileToHivmPass(chip=chip).apply(ctx, module)
    desc = module_chip(module, chip, None)
    annotate_latencies(module, desc)
    (_, problem), = loop_problems(module, desc)
    return problem


@pytest.mark.parametrize(("chains", "length", "chip"), [(4, 16, "ascend950"), (4, 16, "ascend910b")])
def test_a_saturated_pipe_is_packed_at_the_bound(chains: int, length: int, chip: str) -> None:
    p = _loop(chains, length, chip)
    r = schedule_loop(p, optimize_secondary=False)
    busy_v = sum(t.pipe_time for t in p.tasks if "V" in t.pipes)
    assert r.ii == r.stats["search_lower_bound"] == busy_v and r.status == "optimal"
    assert r.stats["heuristic"] == "saturated pipe packed in body order"
    assert not check_schedule(p, r.ii, r.start, r.versions)
    # no probe of the full model was needed
    assert r.stats["probes"] == [] and r.stats["budget_exhausted"] is False


def test_saturated_pipe_and_its_packing() -> None:
    tasks = [Task("a", "V", 10, 4), Task("b", "MTE2", 30, 20), Task("c", "V", 6, 6), Task("d", ("V", "M"), 3, 2, 1)]
    p = LoopProblem(tasks=tasks)
    assert saturated_pipe(p, 13) == "V"  # 4 + 6 + (2 + 1)
    assert saturated_pipe(p, 20) == "MTE2"
    assert saturated_pipe(p, 3) == "M" and saturated_pipe(p, 14) is None
    assert packing_constraints(p, "V") == ["(= r0 0)(= k0 0)", "(= r2 4)(= k2 0)", "(= r3 10)(= k3 0)"]
