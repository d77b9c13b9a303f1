"""The examples' cube and MIX factories at sizes nothing was tuned to
(bench/e2e/unseen_cube.py's draws) stay clean through the oracle on both chips: no race,
no deadlock, no flag left set, outputs equal to the reference interpreter's, simulated
perturbed over the whole grid. A MIX kernel on the 910B (no cc -> ub path) must be a
located refusal, never a crash."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conftest import tier_budget

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "e2e"))
import unseen_cube  # noqa: E402

from ascend_mlir.op_errors import OpError  # noqa: E402

# seeds 0-8 draw each of the 9 factories once (seed % 9): the default tier runs them on each
# chip (about 6 CPU s in all), --slow seeds 0-26
FAST, SLOW = 9, 27


def _seeds(request) -> list[int]:
    return list(range(tier_budget(request.config, fast=FAST, default=FAST, slow=SLOW)))


@pytest.mark.parametrize("chip", ["ascend950", "ascend910b"])
def test_unseen_cube_kernels_pass_the_oracle(request, chip):
    for seed in _seeds(request):
        d = unseen_cube.draw(seed)
        tile_module = unseen_cube.build(d)
        if chip == "ascend910b" and d.factory in unseen_cube.MIX:
            with pytest.raises(OpError, match="from cc to ub has no hardware path on ascend910b"):
                unseen_cube._compiled(tile_module, chip=chip)
            continue
        ours, _ = unseen_cube._compiled(tile_module, chip=chip)
        problems, _ = unseen_cube.check_oracle(d, tile_module, ours, seed)
        assert problems == [], f"seed {seed} {d.label()} on {chip}: {problems}"


def test_draws_reach_every_factory_and_the_sizes_asked_for():
    draws = [unseen_cube.draw(s) for s in range(40)]
    assert {d.factory for d in draws} == set(unseen_cube.FACTORIES)
    assert {d.k_trips for d in draws} == set(unseen_cube.TRIPS)
