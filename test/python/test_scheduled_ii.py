"""Scheduled II = measured II (issue 18): the steady-state II of each innermost scheduled
loop, measured in the simulator, is within 5% of the II the scheduler chose.

Measured as bench/e2e does: on the examples, the median distance between consecutive
issues of the loop's op with the largest ii that is unique in the body; on a generated
chain kernel, what one more iteration costs ((cycles at 16 trips - cycles at 8) / 8).
The outer loop of a nested gemm (bench/e2e/nested.py): what one more output tile costs
((cycles at 4 tiles - cycles at 2) / 2) against the outer loop's II.
Chain kernels whose loop the code keeps in one stage per pipe are written with the II
their code runs at (scheduling/realize.py: the solver's schedule leaves a gap on MTE2
for the stores, the code's next load takes the HBM port in it; code_timing.py: written
in the order the code runs, and a stage-skewed schedule as one stage per pipe); 3, 4,
5, 8, 12 and 16 chains and the 6 x 4 and 16 x 4 shapes are within the issue's 5%: where
a pipe pair runs short of event ids, the replay places the sets as insert-sync does
(scheduling/code_flags.py), and a loop kept in program order is written at its code's II.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "e2e"
sys.path.insert(0, str(BENCH))
import run as e2e  # noqa: E402
from chains import chain_kernel  # noqa: E402
from nested import nested_gemm  # noqa: E402
from norms import norm_kernel  # noqa: E402
from xdsl.context import Context  # noqa: E402
from xdsl.dialects import scf  # noqa: E402

from ascend_mlir.analysis.dependences import resource_conflicts  # noqa: E402
from ascend_mlir.analysis.loop_model import build_loop_model, scheduled_loop_cost, spread_port_conflicts  # noqa: E402
from ascend_mlir.chips import resolve_chip  # noqa: E402
from ascend_mlir.dialects import ascend  # noqa: E402
from ascend_mlir.transforms.convert_tile_to_hivm import ConvertTileToHivmPass  # noqa: E402
from ascend_mlir.transforms.estimate_latency import EstimateLatencyPass  # noqa: E402
from ascend_mlir.transforms.modulo_schedule import ModuloSchedulePass  # noqa: E402


TARGET = 0.05  # issue 18: measured steady-state II within 5% of the scheduled II

# the 16- and 8-trip kernels of a shape pose the same loop: its solve is shared
# (conftest.shared_compiles; nothing here patches the compiler)
SHARE_SOLVES = True


def _chain_iis(chains: int, chip: str, length: int = 8, **tile: int) -> tuple[int, float]:
    """Scheduled II of the chain kernel's loop and what one more iteration costs."""
    name = f"chains{chains}x{length}"
    module = e2e._compiled(chain_kernel(chains, length, trips=16, **tile), name, chip=chip)
    full = e2e._cycles(module)[0]
    half = e2e._cycles(e2e._compiled(chain_kernel(chains, length, trips=8, **tile), name, chip=chip))[0]
    scheduled = e2e._loop_ii(module)
    assert scheduled is not None
    return scheduled, (full - half) / 8


# 5 and 4 chains on the 910B (about 10 and 7 CPU s) are `slow`: 3 chains on the 950
# stands in for the gathered loops in the fast tier (the 910B keeps its nested gemm below)
@pytest.mark.parametrize(("chains", "chip"), [(3, "ascend950"), pytest.param(5, "ascend910b", marks=pytest.mark.slow),
                                              pytest.param(4, "ascend910b", marks=pytest.mark.slow)])
def test_gathered_chain_loops_run_at_their_scheduled_ii(chains, chip):
    """24, 40 and 32 ops (widths the replay was not tuned to; 637 -> 727, 988 -> 1094 and
    813 -> 911 scheduled -> run before the code's timing was written; 4 chains: the
    code's own order, scheduling/code_timing.py, 909 -> 910)."""
    scheduled, measured = _chain_iis(chains, chip)
    assert abs(measured - scheduled) <= TARGET * scheduled, (scheduled, measured)


@pytest.mark.slow
@pytest.mark.parametrize("chip", ["ascend950", "ascend910b"])
def test_eight_chains_run_at_their_scheduled_ii(chip):
    """64 ops: solved again with one set point per drained pipe (session 13: loops above
    40 tasks are gathered too) and run at that schedule's II, 1646 / 1646 on both chips
    (before: kept in program order, written at 2132, run at 2032)."""
    scheduled, measured = _chain_iis(8, chip)
    assert abs(measured - scheduled) <= TARGET * scheduled, (scheduled, measured)


@pytest.mark.slow
@pytest.mark.parametrize(("chains", "length", "tile", "chip"), [
    # 128 ops: 16 loads and 16 stores a pass on 8 event ids per pipe pair, so insert-sync
    # gathers the sets at the fewest points and takes turns on the ids with credit flags
    # (scheduling/code_flags.py); program order written at its code's II: 3204 / 3200
    # (its plain code replays 1.23x the solver's II, under GATHER_LARGE_MIN_LOSS, so it is
    # not solved gathered: that gave 3120 / 3118 for 3 more CPU s; 2944 / 3612 before)
    (16, 8, {}, "ascend950"),
    (16, 8, {}, "ascend910b"),
    # widths and tiles not tuned to: 12 chains 2469 / 2464 (not gathered, as 16 x 8),
    # 16 x 4 ops of 8x64 tiles 3125 / 3119 gathered (session 12: 3317 / 3212; before that
    # 3140 / 2632 and 4164 / 3317, written one past the last start)
    (12, 8, {}, "ascend950"),
    (16, 4, {"rows": 8, "cols": 64}, "ascend950"),
    # 192 ops: 4673 / 4672, not gathered (as 16 x 8; its code's timing written
    # as a fixed point after three rounds, code_timing.steady_schedule; before that 6164
    # written, one past the last start, 4857 run)
    (24, 8, {}, "ascend950"),
    # 120 ops, 20 chains of 6 ops of 4x64 tiles (not tuned to): gathered, 2017 / 2015 on
    # both chips (session 12: its plain schedule's code ran at 2619, an iteration spanning
    # more than that, written as the timing of that one-pass code, ascend.one_pass,
    # code_timing.one_pass_schedule: 2619 / 2619; before that 1875 written, 2620 run)
    (20, 6, {"rows": 4, "cols": 64}, "ascend950"),
    # the same loop on the 910B: 2017 / 2015 gathered (session 11, bench/e2e/ii_models.py:
    # solver 1875, written 2619, run 2624); about 6 CPU s, as slow as the 950 case
    (20, 6, {"rows": 4, "cols": 64}, "ascend910b"),
    # 39 ops, 13 chains of 3 (session 40, not tuned to): program order wins at 16 trips,
    # and no form of its code's timing is found; it was written one past its last start,
    # 3392, where its code runs 2559 an iteration. That code is labelled with the II it
    # runs at now (code_timing.at_its_own_ii): 2558 / 2565.5
    (13, 3, {}, "ascend910b"),
])
def test_wider_chain_loops_run_at_their_scheduled_ii(chains, length, tile, chip):
    scheduled, measured = _chain_iis(chains, chip, length, **tile)
    assert abs(measured - scheduled) <= TARGET * scheduled, (scheduled, measured)


@pytest.mark.parametrize(("chains", "length", "tile", "chip"), [
    # 24 ops of 8x64 tiles (not tuned to): the solver's schedule is stage-skewed (1147,
    # its code ran at 1489); written as one stage per pipe at its code's II, 1278 -> 1279
    (6, 4, {"rows": 8, "cols": 64}, "ascend950"),
    # 2 chains of 8 ops (session 12): a carried V -> MTE3 flag not ordered on one id got a
    # credit flag back whose set drained the store pipe every pass (written 543, ran 715);
    # it now takes a ring of two ids: 543 / 543
    (2, 8, {}, "ascend950"),
    # 7 chains of 5 ops, the same credit: written 1463, ran 1636; now 1463 / 1463
    pytest.param(7, 5, {}, "ascend950", marks=pytest.mark.slow),
    # kept in program order, an iteration spanning more than the II its code runs at: a
    # one-stage schedule cannot say so (one past its last start), written as the timing of
    # that one-pass code (session 16): 4 chains of 6 ops of 16x64 tiles, one version,
    # 1979 -> 1472, ran 1472 (bench random kernel 0's shape, other ops, at 16 trips: 1742 ->
    # 1472, ran 1472); 5 chains of 7 ops of 32x16 tiles 3930 -> 3680, ran 3680; 7 x 5 of
    # 16x48 on the 910B 2828 -> 2576, ran 2576
    (4, 6, {"rows": 16, "cols": 64, "num_stages": 1}, "ascend950"),
    pytest.param(5, 7, {"rows": 32, "cols": 16}, "ascend950", marks=pytest.mark.slow),
    pytest.param(7, 5, {"rows": 16, "cols": 48}, "ascend910b", marks=pytest.mark.slow),
])
def test_untuned_chain_shapes_run_at_their_scheduled_ii(chains, length, tile, chip):
    scheduled, measured = _chain_iis(chains, chip, length, **tile)
    assert abs(measured - scheduled) <= TARGET * scheduled, (scheduled, measured)


@pytest.mark.slow
def test_a_wide_loop_runs_at_its_solver_ii():
    """64 ops, 4 chains of 16 (session 13): a loop of more than 40 tasks is solved again
    with one set point per drained pipe (`GATHER_MAX_TASKS`, LARGE_GATHERED_RLIMIT) and
    that schedule is taken where its code replays faster. The code then keeps the
    solver's schedule: solved 908, written 910, run 910 (before: solved 758 ungathered,
    written 912, run 1086, every store's set draining MTE3)."""
    module = e2e._compiled(chain_kernel(4, 16, trips=16), "chains4x16")
    full = e2e._cycles(module)[0]
    half = e2e._cycles(e2e._compiled(chain_kernel(4, 16, trips=8), "chains4x16"))[0]
    loop = next(o for o in module.walk() if isinstance(o, scf.ForOp) and ascend.loop_of(o) is not None)
    written = ascend.loop_of(loop).ii  # type: ignore[union-attr]
    solver = ascend.solver_ii_of(loop) or written
    measured = (full - half) / 8
    assert abs(measured - written) <= TARGET * written, (written, measured)
    assert measured <= (1 + TARGET) * solver, (solver, written, measured)


@pytest.mark.parametrize("name", ["vecadd", "gemm_910b", "gemm_relu"])
def test_example_loops_run_at_their_scheduled_ii(name):
    path = e2e.ROOT / "examples" / f"{name}.mlir"
    module = e2e._compiled(path.read_text(), str(path))
    loops = e2e._steady_ii(module, e2e._cycles(module)[1])
    assert loops, name
    for loop in loops:
        assert abs(loop["measured_ii"] - loop["scheduled_ii"]) <= 0.05 * loop["scheduled_ii"], (name, loop)


def test_one_chain_loop_runs_at_its_scheduled_ii():
    module = e2e._compiled(chain_kernel(1, trips=16), "chains1x8")
    full = e2e._cycles(module)[0]
    half = e2e._cycles(e2e._compiled(chain_kernel(1, trips=8), "chains1x8"))[0]
    scheduled = e2e._loop_ii(module)
    assert scheduled is not None
    assert abs((full - half) / 8 - scheduled) <= 0.05 * scheduled, (scheduled, (full - half) / 8)


def _outer_loop(module):
    return next(o for o in module.walk() if isinstance(o, scf.ForOp) and _has_inner_loop(o))


def _has_inner_loop(loop):
    return any(isinstance(o, scf.ForOp) for o in loop.body.walk())


def test_a_scheduled_inner_loop_shows_its_parent_when_its_accesses_begin_and_end():
    """The outer loop of a nested gemm sees the K loop's accumulator writes begin at the
    first matmul's issue (after the first step's loads) and its L1 reads end with the last
    matmul's feed, not at the K loop's issue and completion (issue 18 item 4)."""
    module = e2e._parse(nested_gemm(2, 4, tm=128, tn=128, tk=64), "nested")
    for p in (ConvertTileToHivmPass(), EstimateLatencyPass(), ModuloSchedulePass()):
        p.apply(Context(), module)
    outer = _outer_loop(module)
    inner = next(o for o in outer.body.block.ops if isinstance(o, scf.ForOp))
    inner_ii, steps = ascend.loop_of(inner).ii, 4  # type: ignore[union-attr]
    mmad = next(o for o in inner.body.block.ops if o.name == "hivm.hir.mmadL1")
    slot, whole = ascend.task_of(mmad), ascend.task_of(inner)
    assert slot is not None and whole is not None and slot.start is not None and slot.start > 0
    model = build_loop_model(outer, resolve_chip(module), scheduled_loop_cost)
    loop_task = model.tasks[0].info
    acc_writes = [a for a in loop_task.accesses if a.write and a.pipe == "M"]
    assert acc_writes and all(a.begin == slot.start for a in acc_writes)
    assert all(a.done == inner_ii * (steps - 1) + slot.start + slot.latency for a in acc_writes)
    # the fixpipe's read of the accumulator holds the next tile's K loop only until then,
    # less the cycles before the K loop's first matmul
    fixpipe = model.tasks[1].info
    war = [d for d in model.deps if d.src == 1 and d.dst == 0 and d.kind == "WAR"]
    assert war and max(d.latency for d in war) == fixpipe.latency - slot.start
    assert whole.latency > inner_ii * (steps - 1) + slot.start
    # the K loop's loads (4 x 2 x 164 cycles of the HBM port) and the fixpipe's 514 fit in
    # the K loop's 2072: they interleave, and the shared-port conflict is dropped; a loop
    # whose DMA pipes are busier keeps it
    infos = [t.info for t in model.tasks]
    assert resource_conflicts(infos) == [(0, 1)] and model.conflicts == []
    busy = replace(model.tasks[0], usage={**model.tasks[0].usage, "MTE2": whole.ii - 500})
    assert spread_port_conflicts([busy, model.tasks[1]], [(0, 1)]) == [(0, 1)]


@pytest.mark.parametrize("kernel, chip, tolerance", [
    # gemm_anchor's tile (256 x 224 x 2048 bf16, 16 K steps) in an outer loop of tiles
    (dict(k_steps=16), None, 0.05),
    # not tuned to: half the K depth; a 128 x 128 tile of 8 deep steps on the 910B;
    # a 128 x 256 f16 tile of 6 steps; a 64 x 128 f16 tile of 12 steps
    (dict(k_steps=8), None, 0.05),
    (dict(k_steps=8, tm=128, tn=128, tk=128), "ascend910b", 0.05),
    (dict(k_steps=6, tm=128, tn=256, tk=64, dtype="f16"), None, 0.05),
    (dict(k_steps=12, tm=64, tn=128, tk=64, dtype="f16"), None, 0.05),
    # the fixpipe's read of the accumulator is over 790 cycles before the next K loop's
    # first matmul issues: a carried dependence of latency -790 (6056 scheduled, 13% above
    # the 5359 run, while latencies were kept at 0 or more)
    (dict(k_steps=3, tm=128, tn=128, tk=256), "ascend910b", 0.05),
])
def test_outer_loops_of_nested_gemms_run_near_their_scheduled_ii(kernel, chip, tolerance):
    """What one more output tile costs ((cycles at 4 tiles - cycles at 2) / 2) against the
    outer loop's scheduled II: never above it, and within `tolerance` of it."""
    options = {"chip": chip} if chip else {}
    module = e2e._compiled(nested_gemm(4, **kernel), "nested", **options)
    half = e2e._compiled(nested_gemm(2, **kernel), "nested", **options)
    measured = (e2e._cycles(module)[0] - e2e._cycles(half)[0]) / 2
    scheduled = ascend.loop_of(_outer_loop(module)).ii  # type: ignore[union-attr]
    assert measured <= scheduled * 1.05, (scheduled, measured)
    assert abs(measured - scheduled) <= tolerance * scheduled, (scheduled, measured)


@pytest.mark.parametrize("tile, chip", [(64, None), (128, "ascend910b")])
def test_a_tile_loop_of_one_k_step_is_written_at_what_it_runs(tile, chip):
    """nested_gemm(tiles, 1), one version a buffer: peel-mmad-init leaves a tile loop of two
    loads, one mmadL1 and its fixpipe. The mmadL1's MTE1 feed of tile t + 1 runs while
    tile t's fixpipe reads the accumulator (the wait_flag[FIX, M] before it holds the M
    queue only), and the next loads follow that feed. The replay ran the mmadL1 as one
    item after every wait before it, and the scheduler counted the accumulator's
    dependence to its issue: written 568 and 1632 cycles a tile, ran 430 and 1234."""
    options = {"chip": chip} if chip else {}
    kernel = dict(k_steps=1, tm=tile, tn=tile, tk=tile)
    module = e2e._compiled(nested_gemm(6, **kernel), "nested", **options)
    fewer = e2e._compiled(nested_gemm(4, **kernel), "nested", **options)
    loops = [o for o in module.walk() if isinstance(o, scf.ForOp) and ascend.loop_of(o) is not None]
    assert len(loops) == 1  # the K loop of one step is peeled
    written = ascend.loop_of(loops[0]).ii  # type: ignore[union-attr]
    measured = (e2e._cycles(module)[0] - e2e._cycles(fewer)[0]) / 2
    assert abs(measured - written) <= 0.05 * written, (written, measured)


def _norm_iis(name: str, chip: str, width: int = 256) -> tuple[int, float]:
    """Scheduled II and what one more iteration costs ((cycles at 8 trips - at 4) / 4).
    The probe of the examples' test (the op of largest ii: here the load, whose issues
    run ahead of the vector pipe through its two buffers) gives no steady state in a
    4-trip loop: rmsnorm 503 and layernorm 564 'run' on the 910B that way."""
    modules = {t: e2e._compiled(norm_kernel(name, t, width), name, chip=chip) for t in (4, 8)}
    scheduled = e2e._loop_ii(modules[8])
    assert scheduled is not None and scheduled == e2e._loop_ii(modules[4])
    return scheduled, (e2e._cycles(modules[8])[0] - e2e._cycles(modules[4])[0]) / 4


@pytest.mark.slow
@pytest.mark.parametrize("name", [
    "softmax",  # 1304 scheduled, 1314 run on the 910B
    "layernorm",  # 993 scheduled, 1009 run
    # the store of tile i - 1 (output buffer version (i - 1) mod 2) comes before the vmul
    # of tile i into version i mod 2 in the body, and the vmul of the next pass writes
    # the store's version: a carried MTE3 -> V flag on a ring of two ids (set by pass k,
    # waited by pass k + 1). Waited in its own pass it ran 619 against 562 scheduled.
    # The solver's schedule is stage-skewed; its one-stage code replays no slower and is
    # written (scheduling/code_timing.unskewed): 566 / 554 scheduled, 2988 / 2912 cycles
    # at 4 tiles (3109 / 3034 skewed) on the 910B / 950
    "rmsnorm",
])
@pytest.mark.parametrize("chip", ["ascend910b", "ascend950"])  # the 950: 1280/1284, 969/973
def test_norm_loops_run_at_their_scheduled_ii(name, chip):
    """Issue 19 item 2: each op's latency in the schedule equals its busy time in the
    simulator on dav-c220 (load 254, vmul 128, vreduce 93, vbrc 81, store 323 ... by
    hand, at c7ae17a); the loop's II is within 5% of what one more iteration costs."""
    scheduled, measured = _norm_iis(name, chip)
    assert abs(measured - scheduled) <= TARGET * scheduled, (scheduled, measured)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["rmsnorm", "layernorm"])
@pytest.mark.parametrize("chip", ["ascend910b", "ascend950"])
def test_norm_loops_at_a_width_not_tuned_to(name, chip):
    """The same at 128 columns (measured: rmsnorm 282/294 on the 910B, 278/283 on the 950;
    layernorm 497/513, 489/493). rmsnorm ran 34-36% above its schedule there (378) while
    its loop was stage-skewed and insert-sync waited for the store of the previous tile in
    the vmul's own pass; the carried ring and 2e4d53e's one-stage code each fix it (286/293,
    282/282 now)."""
    scheduled, measured = _norm_iis(name, chip, width=128)
    assert abs(measured - scheduled) <= TARGET * scheduled, (scheduled, measured)


def _cube_k_loop_iis(draw, chip: str) -> tuple[int, float]:
    """The II written on the one K loop of an unseen_cube draw compiled for `chip`, and the
    one the simulator runs it at (ii_models `_probe_ii`, one block)."""
    import unseen_cube
    from ascend_mlir.sim.simulator import simulate

    module, _ = unseen_cube._compiled(unseen_cube.build(draw), chip=chip)
    inputs = None
    if draw.binds:
        f = unseen_cube.kernel_function(module)
        inputs = unseen_cube.make_inputs(f, 1, unseen_cube.bind_arguments(f, unseen_cube._bind_texts(draw, f)))
    traced = simulate(module.clone(), inputs, blocks=1, trace=True)
    (loop,) = unseen_cube._innermost(module)
    written = ascend.loop_of(loop).ii
    measured = unseen_cube._probe_ii(loop, traced)
    assert measured is not None
    return written, measured


@pytest.mark.parametrize("seed", [19, 74])
def test_cube_k_loops_not_tuned_to_run_at_their_written_ii(seed):
    """A K loop whose set after the second load drains MTE2 for that load's latency, not
    for the shorter one the solver's drain reservation assumes, is written at the II its
    code runs (scheduling/realize.py replays a loop of one core; unseen_cube seeds 19 and 74,
    K steps of 32: written 285 and ran 308 and 297)."""
    import unseen_cube

    written, measured = _cube_k_loop_iis(unseen_cube.draw(seed), "ascend950")
    assert abs(measured - written) <= 0.01 * written, (written, measured)


def test_a_runtime_shape_k_loop_runs_at_its_written_ii():
    """gemm_dyn's K loop at full tiles: the replay sets the cube's MTE1 -> MTE2 flag once
    its feed is over, not behind the cube (replayed so, it would be written at 614 and ran
    520)."""
    import unseen_cube

    size = {"m": 128, "n": 128, "k": 1024}
    draw = unseen_cube.Draw("gemm_dyn", dict(size), binds=dict(size), k_trips=16)
    written, measured = _cube_k_loop_iis(draw, "ascend950")
    assert abs(measured - written) <= 0.01 * written, (written, measured)


@pytest.mark.parametrize("seed", [24, 33, 312])
def test_a_loop_of_both_cores_is_written_at_the_ii_its_code_runs(seed):
    """A MIX loop (flash attention: the cube's QK and PV steps, the vector's softmax) is
    written at the II its code replays at, its cores' hand-offs as insert-sync carries
    them (`_both_cores_as_run`, realize `_between_cores`): unseen_cube seed 312 (17 key
    blocks) was written at 295 and ran 466 a pass, seed 33 (7 key blocks, two buffers)
    at 880 and ran 949, seed 24 (key blocks of 16) at 275, replayed at 452 with the V
    load's set behind the QK step's feed, and ran 426."""
    import unseen_cube
    from ii_models import cube_core_period

    from ascend_mlir.sim.simulator import simulate

    module, _ = unseen_cube._compiled(unseen_cube.build(unseen_cube.draw(seed)), chip="ascend950")
    written = {ascend.loop_of(loop).ii for loop in unseen_cube._innermost(module)}  # the aic and aiv parts'
    assert len(written) == 1
    measured = cube_core_period(simulate(module, blocks=1, trace=True))
    assert measured is not None
    assert abs(measured - min(written)) <= 0.01 * min(written), (written, measured)
