"""The hand-synced hivm kernels in test/sim/examples calibrate the oracle.

Each `<name>.hivm.mlir` is examples/<name>.mlir lowered and synchronised by hand with
precise set_flag/wait_flag (double-buffered where the example allows it). They check:

* the simulator runs them without race, deadlock or unbalanced flag, and their outputs
  equal the reference interpreter's on the tile-level example (same inputs);
* every flag in them is necessary: removing all set/wait of one flag (pipe pair + event,
  or one cross-core flag id) makes the race detector report a race.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from ascend_mlir.sim import simulate
from ascend_mlir.sim.reference import kernel_function, make_inputs, run_reference

from test_reference import parse

ROOT = Path(__file__).resolve().parents[2]
HAND_SYNCED = ROOT / "test" / "sim" / "examples"
EXAMPLES = ROOT / "examples"
NAMES = sorted(p.name.removesuffix(".hivm.mlir") for p in HAND_SYNCED.glob("*.hivm.mlir"))

FLAG = re.compile(r"hivm\.hir\.(?:set_flag|wait_flag)(\[[^\]]*\])")
BLOCK_FLAG = re.compile(r"hivm\.hir\.sync_block_(?:set|wait)\[[^\]]*\] (flag = \d+)$")


def test_every_hand_synced_kernel_has_its_example():
    # the five first examples are hand-synced; the kernel suite added later (persistent
    # gemm, norms, flash attention) is checked through ascend-compile by test_examples.py
    assert {"vecadd", "softmax", "gemm", "gemm_910b", "gemm_relu"} <= set(NAMES)
    assert set(NAMES) <= {p.stem for p in EXAMPLES.glob("*.mlir")}


@pytest.mark.parametrize("name", NAMES)
def test_hand_synced_matches_reference_without_races(name):
    tile_module = parse((EXAMPLES / f"{name}.mlir").read_text())
    hivm_module = parse((HAND_SYNCED / f"{name}.hivm.mlir").read_text())
    inputs = make_inputs(kernel_function(tile_module), seed=1)
    expected = run_reference(tile_module, inputs)
    result = simulate(hivm_module, inputs)
    assert not result.races, [r.message() for r in result.races]
    assert not result.deadlock, result.deadlock_info
    assert not result.unbalanced_flags and not result.double_sets
    assert sorted(result.outputs) == sorted(expected)
    for arg, want in expected.items():
        np.testing.assert_allclose(result.outputs[arg], want, rtol=1e-6, atol=1e-6, err_msg=arg)


def _flag_keys(text: str) -> list[str]:
    keys = set(FLAG.findall(text))
    keys.update(m.group(1) for line in text.splitlines() if (m := BLOCK_FLAG.search(line.strip())))
    return sorted(keys)


def _without_flag(text: str, key: str) -> str:
    def uses(line: str) -> bool:
        stripped = line.strip()
        if "set_flag" in stripped or "wait_flag" in stripped:
            return key in stripped
        return "sync_block_" in stripped and stripped.endswith(key)

    return "\n".join(line for line in text.splitlines() if not uses(line))


MUTANTS = [
    (name, key)
    for name in NAMES
    for key in _flag_keys((HAND_SYNCED / f"{name}.hivm.mlir").read_text())
]


@pytest.mark.parametrize("name,key", MUTANTS, ids=[f"{n}-{k}" for n, k in MUTANTS])
def test_every_flag_is_necessary(name, key):
    text = (HAND_SYNCED / f"{name}.hivm.mlir").read_text()
    mutant = _without_flag(text, key)
    assert mutant != text
    result = simulate(parse(mutant), None, blocks=1)
    assert result.races, f"removing {key} from {name} left no race"


BARRIERS = [
    (name, index)
    for name in NAMES
    for index, line in enumerate((HAND_SYNCED / f"{name}.hivm.mlir").read_text().splitlines())
    if "hivm.hir.pipe_barrier[<PIPE_V>]" in line
]


def test_some_example_has_vector_barriers():
    assert len(BARRIERS) >= 5, BARRIERS


@pytest.mark.parametrize("name,index", BARRIERS, ids=[f"{n}-line{i + 1}" for n, i in BARRIERS])
def test_every_vector_barrier_is_necessary(name, index):
    """Same-pipe rule of the 910B: its V pipe does not order dependent vector ops, so
    dropping any pipe_barrier[<PIPE_V>] of a hand-synced kernel is a race there (the 950
    orders V: docs/same-pipe-rule.md; test_same_pipe_rule.py checks both chips)."""
    lines = (HAND_SYNCED / f"{name}.hivm.mlir").read_text().splitlines()
    mutant = "\n".join(lines[:index] + lines[index + 1:])
    result = simulate(parse(mutant), None, blocks=1, chip="ascend910b")
    assert result.races, f"removing the V barrier at line {index + 1} of {name} left no race"
    assert all(r.first_core == r.second_core for r in result.races)
