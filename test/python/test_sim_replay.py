"""Replaying a block's engine run for the blocks whose instruction streams have the same
signature (sim/replay.py) gives the same result as running the engine for every block:
cycles, races (with their counts and blocks), reads of never-written memory, flags,
deadlocks and the outputs, bit for bit, on the kernel as compiled and on mutants that
drop one sync or data op (races, never-written reads, deadlocks, unbalanced flags)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from ascend_mlir.context import make_context
from ascend_mlir.diagnostics import parse_module
from ascend_mlir.sim.engine import OP, Access, Core, Instr
from ascend_mlir.sim.replay import RecordedRun, stream_signature
from ascend_mlir.sim.routes import compile_tile_level
from ascend_mlir.sim.simulator import simulate

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _linear_bias_source() -> str:
    spec = importlib.util.spec_from_file_location("example_linear_bias_replay", EXAMPLES / "linear_bias.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # 4 blocks of a 128x128 tile, 3 K steps: a MIX kernel with cube and vector cores, its
    # K loop a pipelined loop with flags to drop (a K loop of 2 steps is straight-line code,
    # whose sync insert-sync makes barriers where they are no slower than flags)
    return module.make(m=256, k=192, n=256, tm=128, tn=128, tk=64).to_mlir()


def _compiled(source: str, name: str):
    ctx = make_context()
    module = parse_module(ctx, source, name)
    compile_tile_level(ctx, module, None)
    return module


def _same_results(module, replays: int | None = None) -> dict:
    """Both ways give the same; `replays`: how many blocks the replaying run replayed."""
    calls = []
    original = RecordedRun.replayed

    def counted(self, cores):
        calls.append(1)
        return original(self, cores)

    RecordedRun.replayed = counted  # type: ignore[method-assign]
    try:
        replayed = simulate(module, replay=True, trace=False)
    finally:
        RecordedRun.replayed = original  # type: ignore[method-assign]
    if replays is not None:
        assert len(calls) == replays
    full = simulate(module, replay=False, trace=False)
    assert replayed.to_json() == full.to_json()
    assert replayed.instructions == full.instructions
    assert sorted(replayed.outputs) == sorted(full.outputs)
    for name in full.outputs:
        assert replayed.outputs[name].tobytes() == full.outputs[name].tobytes(), name
    return full.to_json()


@pytest.fixture(scope="module")
def linear_bias_text() -> str:
    return str(_compiled(_linear_bias_source(), "linear_bias.py"))


def _mutants(text: str, op_name: str) -> list[str]:
    """The module with its i-th `op_name` line removed, one mutant per such line."""
    lines = text.splitlines()
    at = [i for i, line in enumerate(lines) if f"{op_name}" in line and "=" not in line.split(op_name)[0]]
    return ["\n".join(lines[:i] + lines[i + 1:]) for i in at]


def test_replayed_blocks_equal_full_runs_on_the_compiled_kernel(linear_bias_text):
    ctx = make_context()
    got = _same_results(parse_module(ctx, linear_bias_text, "lb.mlir"), replays=3)
    assert got["blocks"] == 4 and got["races"] == [] and got["cycles"] > 0


@pytest.mark.parametrize("op_name", ["hivm.hir.wait_flag", "hivm.hir.set_flag", "hivm.hir.sync_block_set",
                                     "hivm.hir.sync_block_wait", "hivm.hir.nd2nz"])
def test_replayed_blocks_equal_full_runs_on_mutants(linear_bias_text, op_name):
    mutants = _mutants(linear_bias_text, op_name)
    assert mutants, f"no {op_name} in the compiled kernel"
    verdicts = set()
    for source in mutants[:3]:
        ctx = make_context()
        got = _same_results(parse_module(ctx, source, "mutant.mlir"))
        verdicts.add(bool(got["races"] or got["uninitialized_reads"] or got["deadlock"] or got["unbalanced_flags"]))
    assert True in verdicts  # a mutant the oracle flags was compared too


def test_replayed_blocks_equal_full_runs_when_blocks_share_a_tile(linear_bias_text):
    """Blocks 2 and 3 both take tile 2 (block index clamped): cross-block races on y."""
    lines = []
    for line in linear_bias_text.splitlines():
        if "%block_i64 = hivm.hir.get_block_idx" in line:
            lines += [line.replace("%block_i64", "%raw_block"), "    %two = arith.constant 2 : i64",
                      "    %block_i64 = arith.minsi %raw_block, %two : i64"]
        else:
            lines.append(line)
    ctx = make_context()
    got = _same_results(parse_module(ctx, "\n".join(lines), "clamped.mlir"), replays=3)
    assert any(r["first"]["core"] == "block 2" and r["second"]["core"] == "block 3" for r in got["races"])


def test_signature_sees_a_shift_of_one_view_but_not_of_the_whole_memory():
    memory = np.zeros(64, dtype=np.uint8)
    other = np.zeros(64, dtype=np.uint8)

    def core(first: int, second: int, mem=memory) -> list[Core]:
        accesses = (Access("gm x", mem[first:first + 8], True), Access("gm x", mem[second:second + 8], False))
        return [Core("vec0", "VECTOR", [Instr(OP, ("V",), 4, 4, accesses, name="op", static_id=1)])]

    base = stream_signature(core(0, 4))
    assert stream_signature(core(16, 20)) == base  # both views moved together: same overlaps
    assert stream_signature(core(0, 4, other)) == base  # another memory of the same shape
    assert stream_signature(core(0, 8)) != base  # no longer overlapping


def test_access_places_are_what_numpy_says(monkeypatch):
    """The walk writes where each access's views lie (engine.Access.place and
    written_place, from its buffer: the race detector's byte bounds and the signature's
    memory placement) instead of asking numpy per access: on every access of every block
    of a MIX kernel they equal numpy's answer for the views themselves."""
    from ascend_mlir.sim import simulator as simulator_module
    from ascend_mlir.sim.engine import _byte_bounds
    from ascend_mlir.sim.memory import array_address, array_root

    placed = []
    original = simulator_module.stream_signature

    def checked(cores):
        for core in cores:
            for ins in core.instrs:
                for acc in ins.accesses:
                    if acc.place is not None:
                        assert acc.place[0] is array_root(acc.view)
                        assert acc.place[1:] == _byte_bounds(acc.view)
                        placed.append(acc)
                    if acc.written_place is not None:
                        assert acc.written is not None
                        assert acc.written_place[0] is array_root(acc.written)
                        assert acc.written_place[1] == array_address(acc.written)
        return original(cores)

    monkeypatch.setattr(simulator_module, "stream_signature", checked)
    simulate(_compiled(_linear_bias_source(), "linear_bias.mlir"), trace=False)
    assert len(placed) > 100
