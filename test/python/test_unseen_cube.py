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


def _mmad_period(result) -> float:
    """The median distance between the cube's mmads (one per tile, a K loop of one trip)."""
    starts = [e.start for e in result.trace if e.name == "mmadL1" and e.pipe == "M"]
    gaps = sorted(b - a for a, b in zip(starts, starts[1:]))
    return gaps[len(gaps) // 2]


def test_a_k_loop_of_two_trips_in_a_tile_loop_is_scheduled_as_its_two_steps():
    """unseen_cube 813 (gemm_fp16, K = 2 TK, one tile a block on the 910B): after the peeled
    first step, the K loop of one trip left was a pipelined loop of its own, which loaded
    the second step's B tile before its A tile (the longer load last) and ran 1000 cycles
    against program order's 990. Its two steps are now the tile loop's straight line, the
    second on L1 tiles of its own: no K loop is left, and it runs faster than either
    baseline (840 cycles)."""
    from xdsl.dialects import scf

    d = unseen_cube.draw(813)
    tile_module = unseen_cube.build(d)
    ours, _ = unseen_cube._compiled(tile_module, chip="ascend910b")
    assert len([op for op in ours.walk() if isinstance(op, scf.ForOp)]) == 1  # the tile loop
    cycles = unseen_cube.simulate(ours.clone(), None, chip="ascend910b", blocks=1, trace=False).cycles
    for options in ({"sync": "barrier-all", "schedule": "program-order"}, {"schedule": "program-order"}):
        baseline, _ = unseen_cube._compiled(tile_module, chip="ascend910b", **options)
        assert cycles < unseen_cube.simulate(baseline, None, chip="ascend910b", blocks=1, trace=False).cycles


@pytest.mark.parametrize("seed", [353, 570])
def test_a_k_loop_of_one_trip_is_scheduled_as_the_straight_line_it_becomes(seed):
    """gemm_persistent's tile loop around a K loop of one trip (K = TK), 6 tiles a block
    on the 910B. peel-mmad-init turns that K loop into its peeled step after scheduling,
    but the tile loop was scheduled around it as one task of one version per L1 tile, at
    the K loop's own length: seed 353 written at 316 ran 370 a tile, seed 570 written at
    446 ran 303, and both ran as program order does (2537 and 2089 cycles). A K loop of
    one trip is peeled before the scheduler: the tile loop's loads, mmad and fixpipe are
    its own tasks, its L1 tiles and accumulator get versions, and it runs at its II
    (332 and 286) and faster than either baseline."""
    from ascend_mlir.dialects import ascend
    from xdsl.dialects import scf

    d = unseen_cube.draw(seed)
    d.constants.update(M=d.constants["TM"] * 6, TILES_PER_BLOCK=6)
    tile_module = unseen_cube.build(d)
    ours, _ = unseen_cube._compiled(tile_module, chip="ascend910b")
    loops = [op for op in ours.walk() if isinstance(op, scf.ForOp)]
    assert len(loops) == 1  # the tile loop alone: no K loop is left
    written = ascend.loop_of(loops[0]).ii  # type: ignore[union-attr]
    traced = unseen_cube.simulate(ours.clone(), None, chip="ascend910b", blocks=1, trace=True)
    assert abs(_mmad_period(traced) / written - 1) <= 0.05, (written, _mmad_period(traced))
    for options in ({"sync": "barrier-all", "schedule": "program-order"}, {"schedule": "program-order"}):
        baseline, _ = unseen_cube._compiled(tile_module, chip="ascend910b", **options)
        assert traced.cycles < unseen_cube.simulate(baseline, None, chip="ascend910b", blocks=1, trace=False).cycles
    problems, _ = unseen_cube.check_oracle(d, tile_module, ours, seed)
    assert problems == []


@pytest.mark.parametrize("seed", [343, 298])
def test_a_k_loop_of_two_trips_at_the_top_level_loads_its_second_step_under_its_first(seed):
    """gemm_910b at K = 2 TK (one tile a block, its K loop at the top level of the
    function): the K loop stayed a loop of two trips, since ascend-plan-memory gave the
    second step's tiles the bytes of the first's (their uses apart in program order), and
    its second step's loads waited for the first step's mmadL1 to have read them (seed 343:
    2613 cycles on the 910B, 298: 1493). Its two steps are now straight-line code, the
    second on L1 tiles of their own, which plan-memory places beside the others where L1
    holds them all: the second step's first load starts while the first mmadL1's MTE1
    feed still reads its tiles (2350 and 1406 cycles), and the oracle finds nothing."""
    from xdsl.dialects import scf

    d = unseen_cube.draw(seed)
    tile_module = unseen_cube.build(d)
    ours, _ = unseen_cube._compiled(tile_module, chip="ascend910b")
    assert not [op for op in ours.walk() if isinstance(op, scf.ForOp)]
    traced = unseen_cube.simulate(ours.clone(), None, chip="ascend910b", blocks=1, trace=True)
    loads = sorted(e.start for e in traced.trace if e.name == "nd2nz")
    first_feed = min((e for e in traced.trace if e.name == "mmadL1" and e.pipe == "MTE1"), key=lambda e: e.start)
    assert len(loads) == 4 and loads[2] < first_feed.end, (loads, first_feed)
    problems, _ = unseen_cube.check_oracle(d, tile_module, ours, seed)
    assert problems == []
