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


SLOW_CUBE = str(Path(__file__).resolve().parents[2] / "bench" / "e2e" / "chips" / "slow_cube.toml")


def test_a_pipelined_loop_inside_a_branch_of_a_loop_takes_its_ids_first():
    """Seed 26 (flash_attention_dyn, 17 key blocks) on slow_cube.toml (5 event ids per pipe
    pair): the pipelined key loop stands in a branch of the query loop, whose straight-line
    M -> FIX flags hold their ids over all of it. The key loop's flags chose after them,
    found one id of the two they needed and a pipe_barrier[<PIPE_ALL>] stood in every key
    pass (19181 cycles, program order 19149). The innermost loop's flags choose first; a
    barrier of the branch runs once per query block (15322)."""
    from ascend_mlir.dialects import ascend
    from ascend_mlir.dialects.hivm.sync import PipeBarrierOp

    d = unseen_cube.draw(26)
    tile_module = unseen_cube.build(d)
    ours, _ = unseen_cube._compiled(tile_module, chip=SLOW_CUBE)
    pipelined = [op for op in ours.walk() if ascend.is_pipelined(op)]
    assert len(pipelined) == 2  # the cube's and the vector's key loop
    for loop in pipelined:
        assert not any(isinstance(op, PipeBarrierOp) for op in loop.walk())
    problems, _ = unseen_cube.check_oracle(d, tile_module, ours, 26, SLOW_CUBE)
    assert problems == []
