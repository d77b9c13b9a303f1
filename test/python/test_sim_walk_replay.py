"""A later block's instruction streams built from the first block's walk
(sim/walk_replay.py) give what walking the block gives: the same results, bit for bit,
as `simulate(replay=False)` (every block walked and run), plain and perturbed; a view
that is out of bounds in a later block only is the same located error; and a kernel
whose control flow depends on the block is walked in full."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from ascend_mlir.context import make_context
from ascend_mlir.diagnostics import parse_module
from ascend_mlir.sim.hivm_frontend import SimulationError
from ascend_mlir.sim.layout import find_kernel
from ascend_mlir.sim.routes import compile_tile_level
from ascend_mlir.sim.simulator import simulate
from ascend_mlir.sim.walk_replay import WalkRecord, block_dependence

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _compiled(source: str, name: str = "kernel.mlir"):
    ctx = make_context()
    module = parse_module(ctx, source, name)
    compile_tile_level(ctx, module, None)
    return module


def _dependence(module):
    kernel = find_kernel(module, None)
    return block_dependence(f for f in (kernel.aic, kernel.aiv) if f is not None)


def _replays_counted(module, **kwargs):
    calls = []
    original = WalkRecord.replayed

    def counted(self, block):
        calls.append(block)
        return original(self, block)

    WalkRecord.replayed = counted  # type: ignore[method-assign]
    try:
        return simulate(module, replay=True, trace=False, **kwargs), calls
    finally:
        WalkRecord.replayed = original  # type: ignore[method-assign]


def _same_as_full(module, **kwargs):
    fast, calls = _replays_counted(module, **kwargs)
    full = simulate(module, replay=False, trace=False, **kwargs)
    assert fast.to_json() == full.to_json()
    assert fast.instructions == full.instructions
    assert sorted(fast.outputs) == sorted(full.outputs)
    for name in full.outputs:
        assert fast.outputs[name].tobytes() == full.outputs[name].tobytes(), name
    return full, calls


def _gemm(grid: int = 2, n: int = 448, tail: str = "") -> str:
    """examples/gemm.mlir with another grid and N (the blocks' tiles of 224 columns)."""
    text = (EXAMPLES / "gemm.mlir").read_text()
    text = text.replace("tile.grid = 2", f"tile.grid = {grid}").replace("512x448", f"512x{n}")
    text = text.replace("256x448", f"256x{n}").replace("[448, 1]", f"[{n}, 1]")
    return text.replace("%n0 = arith.muli %block, %c224 : index", "%n0 = arith.muli %block, %c224 : index" + tail)


@pytest.fixture(scope="module")
def linear_bias():
    spec = importlib.util.spec_from_file_location("example_linear_bias_walk", EXAMPLES / "linear_bias.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # 6 blocks of a 64x64 tile on a 2 x 3 grid (block // 3, block % 3): a MIX kernel, its K
    # loop of 3 steps a pipelined loop with flags (one of 2 steps is straight-line code,
    # whose sync insert-sync makes barriers where they are no slower than flags)
    return str(_compiled(module.make(m=128, k=192, n=192, tm=64, tn=64, tk=64).to_mlir(), "linear_bias.py"))


def test_later_blocks_replay_the_walk_of_a_mix_kernel(linear_bias):
    ctx = make_context()
    module = parse_module(ctx, linear_bias, "lb.mlir")
    dependence = _dependence(module)
    assert dependence is not None and dependence.ops
    full, calls = _same_as_full(module)
    assert calls == [1, 2, 3, 4, 5]
    assert full.blocks == 6 and full.ok and full.cycles > 0


def test_perturbed_runs_replay_the_walk_with_the_same_latency_draws(linear_bias):
    ctx = make_context()
    module = parse_module(ctx, linear_bias, "lb.mlir")
    full, calls = _same_as_full(module, perturb=3)
    assert calls == [1, 2, 3, 4, 5]
    unperturbed = simulate(module, trace=False)
    assert full.cycles != unperturbed.cycles  # the draws were taken


@pytest.mark.parametrize(("kernel", "seed"), [("gemm", 0), ("gemm", 7), ("linear_bias", 5)])
def test_perturbed_blocks_redraw_the_latencies_of_the_first_blocks_instructions(linear_bias, monkeypatch,
                                                                                 kernel, seed):
    """A timed op that does not depend on the block keeps the first block's instructions
    with its latency redrawn (walk_replay._retimed; mmadL1's feed and cube parts split
    again): the same draws, cycles, races and outputs as walking every block, on a cube
    kernel (gemm on a grid of 5, not an example's) and the MIX linear_bias."""
    from ascend_mlir.sim import walk_replay

    redrawn = []
    original = walk_replay._retimed

    def counted(walker, event):
        redrawn.append(event.op.name)
        return original(walker, event)

    monkeypatch.setattr(walk_replay, "_retimed", counted)
    module = _compiled(_gemm(grid=5, n=1120)) if kernel == "gemm" else parse_module(make_context(), linear_bias, "lb.mlir")
    full, calls = _same_as_full(module, perturb=seed)
    assert calls and "hivm.hir.mmadL1" in redrawn
    assert full.cycles != simulate(module, trace=False).cycles


@pytest.mark.parametrize("op_name", ["hivm.hir.wait_flag", "hivm.hir.set_flag"])
def test_replayed_walks_equal_full_walks_on_racy_mutants(linear_bias, op_name):
    lines = linear_bias.splitlines()
    at = [i for i, line in enumerate(lines) if op_name in line]
    flagged = False
    for i in at[:1]:
        ctx = make_context()
        module = parse_module(ctx, "\n".join(lines[:i] + lines[i + 1:]), "mutant.mlir")
        full, calls = _same_as_full(module)
        assert calls == [1, 2, 3, 4, 5]
        flagged |= not full.ok
    assert flagged


def test_grid_shapes_not_tuned_to():
    """Five blocks of the cube example (N = 1120): replayed and equal."""
    for grid in (5,):
        full, calls = _same_as_full(_compiled(_gemm(grid, 224 * grid)))
        assert calls == list(range(1, grid)) and full.ok


def test_a_view_out_of_bounds_in_a_later_block_only_is_the_walks_error():
    """Grid 3 on 448 columns: block 2's B and C tiles start at column 448. The replay
    fails there, and the block's full walk reports the subview at its line."""
    module = _compiled(_gemm(grid=3))
    messages = []
    for replay in (True, False):
        with pytest.raises(SimulationError) as err:
            simulate(module, replay=replay, trace=False)
        messages.append(str(err.value))
    assert messages[0] == messages[1]
    assert "subview out of bounds in dim 1: offset 448" in messages[0]


def test_block_dependent_control_flow_is_walked_in_full():
    """The K loop runs block + 1 steps: the walk differs per block, nothing is replayed."""
    text = _gemm(tail="\n    %kn = arith.addi %block, %c1 : index").replace(
        "scf.for %k = %c0 to %c4 step %c1", "scf.for %k = %c0 to %kn step %c1")
    module = _compiled(text)
    assert _dependence(module) is None
    full, calls = _same_as_full(module)
    assert calls == [] and full.blocks == 2


def test_block_dependent_scalar_inside_a_loop_is_walked_in_full():
    # n0 + k * 0: of the block and of the loop's variable, so the peeled first K step's
    # copy (k a constant there) is not the loop's, which ascend-cse-index-math would reuse
    text = _gemm().replace("%k0 = arith.muli %k, %c128 : index",
                           "%k0 = arith.muli %k, %c128 : index\n      %kz = arith.muli %k, %c0 : index"
                           "\n      %nb = arith.addi %n0, %kz : index")
    text = text.replace("%bs = memref.subview %b[%k0, %n0]", "%bs = memref.subview %b[%k0, %nb]")
    module = _compiled(text)
    assert _dependence(module) is None
    full, calls = _same_as_full(module)
    assert calls == [] and full.ok
