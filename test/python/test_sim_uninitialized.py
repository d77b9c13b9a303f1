"""Reads of on-chip memory that no op wrote (issue 23): a simulator error with both
locations, and never a reference match, whatever values the zero-filled memory gave."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ascend_mlir.context import make_context
from ascend_mlir.diagnostics import parse_module
from ascend_mlir.sim.routes import compare_simulated
from ascend_mlir.sim.simulator import simulate

INPUTS = Path(__file__).resolve().parents[1] / "sim" / "Inputs" / "uninit"


def _simulate(name: str):
    path = INPUTS / name
    module = parse_module(make_context(), path.read_text(), str(path))
    return simulate(module, None, trace=False)


def test_matmul_without_init_reads_l0c_never_written():
    result = _simulate("matmul-only-k-step-no-init.mlir")
    (read,) = result.uninitialized_reads
    assert (read.op, read.core, read.memory) == ("mmadL1", "cube", "cc %acc of cube")
    assert read.loc.endswith("matmul-only-k-step-no-init.mlir:15:5")
    assert read.origin.endswith("matmul-only-k-step-no-init.mlir:10:5")
    assert not result.ok
    assert not result.races and not result.deadlock  # the sync is right: only the data is not


def test_outputs_from_never_written_memory_never_match():
    result = _simulate("relu-of-unloaded-ub.mlir")
    assert result.uninitialized_reads
    same = {name: np.array(v, copy=True) for name, v in result.outputs.items()}
    match, comparison = compare_simulated(result, same)  # equal values, still no match
    assert not match
    assert all(entry["match"] for entry in comparison)


def test_written_memory_is_clean_and_matches():
    result = _simulate("matmul-tail-m17.mlir")
    assert result.uninitialized_reads == [] and result.ok
    match, _ = compare_simulated(result, dict(result.outputs))
    assert match


def test_perturbed_runs_report_the_same_read():
    path = INPUTS / "pointer-cast-past-load.mlir"
    module = parse_module(make_context(), path.read_text(), str(path))
    plain = simulate(module.clone(), None, trace=False)
    perturbed = simulate(module.clone(), None, trace=False, perturb=5)
    assert [u.to_json() for u in plain.uninitialized_reads] == [u.to_json() for u in perturbed.uninitialized_reads]
    assert plain.uninitialized_reads[0].unwritten == 512
