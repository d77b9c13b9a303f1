"""The hardware facts module and the modules that must agree with it."""

import ast
import importlib

import pytest
from pathlib import Path

from ascend_mlir import hardware
from ascend_mlir.chips import load_chip
from ascend_mlir.dialects import tile


def _pipe_lists(path: Path) -> list[int]:
    """Lines of `path` with a tuple/list/set literal of three or more pipe names."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            names = {e.value for e in node.elts if isinstance(e, ast.Constant)}
            if len(names) == len(node.elts) >= 3 and names <= set(hardware.PIPES):
                lines.append(node.lineno)
    return lines


def test_pipes_have_one_home():
    # the package spells the pipe list once; everyone else takes hardware.PIPES
    package = Path(hardware.__file__).parent
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package).as_posix()
        if rel != "hardware.py":
            assert not _pipe_lists(path), f"{rel} spells a pipe list"
    assert _pipe_lists(package / "hardware.py")
    for module in ("ascend_mlir.scheduling", "ascend_mlir.sim.engine", "ascend_mlir.dialects.hivm",
                   "ascend_mlir.chips"):
        assert not hasattr(importlib.import_module(module), "PIPES"), module


def test_cores_and_their_pipes():
    assert hardware.core_of_pipes(("MTE1",)) == "CUBE"
    assert hardware.core_of_pipes(("FIX",)) == "CUBE"
    assert hardware.core_of_pipes(("V",)) == "VECTOR"
    assert hardware.core_of_pipes(("MTE3",)) == "VECTOR"
    # MTE2 and S exist on both cores: they do not tell the core
    assert hardware.core_of_pipes(("MTE2",)) == "SCALAR"
    assert hardware.core_of_pipes(("S",)) == "SCALAR"
    assert set(hardware.PIPES) == hardware.CORE_PIPES["CUBE"] | hardware.CORE_PIPES["VECTOR"]


def test_same_pipe_rule():
    # chip data asked through one function (docs/same-pipe-rule.md): S is ordered on every
    # chip, M -> M between mmadL1 ops by the op, V on the register-based 950 only
    from ascend_mlir.chips import needs_barrier

    a5, c220 = load_chip("ascend950"), load_chip("ascend910b")
    assert a5.ordered_pipes == {"S", "V"} and c220.ordered_pipes == {"S"}
    for chip in (a5, c220, None):
        assert not needs_barrier(chip, "S", "S")
        assert not needs_barrier(chip, "M", "M")
        assert not needs_barrier(chip, "MTE2", "V")  # different pipes: a flag, never a barrier
        assert all(needs_barrier(chip, p, p) for p in ("MTE1", "MTE2", "MTE3", "FIX"))
    assert needs_barrier(c220, "V", "V")
    assert not needs_barrier(a5, "V", "V")
    assert not needs_barrier(None, "V", "V")  # the default chip is the 950
    # timing (issue order within ii) is chip independent and does not include the 950's V
    assert hardware.ORDERED_PIPES == {"M", "S"}


def test_chip_ordered_pipes_are_checked(tmp_path):
    from ascend_mlir.chips import ChipError, load_chip_file

    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "ascend950"\n[chip]\nordered_pipes = ["V"]\n')
    with pytest.raises(ChipError, match="must hold"):
        load_chip_file(bad)
    bad.write_text('extends = "ascend950"\n[chip]\nordered_pipes = ["S", "VEC"]\n')
    with pytest.raises(ChipError, match="not a pipe"):
        load_chip_file(bad)


def test_copy_paths_agree_with_tile_and_chips():
    assert set(tile.COPY_PATHS) == set(hardware.TILE_COPY_PATHS)
    assert tile.COPY_PATHS[("gm", "ub")] == "load (MTE2)"
    for name in ("ascend950", "ascend910b"):
        chip = load_chip(name)
        assert set(chip.latency.copy) <= set(hardware.COPY_PATHS)
        assert set(hardware.REQUIRED_COPY_PATHS) <= set(chip.latency.copy)
        for pair, path in chip.latency.copy.items():
            assert path.pipe == hardware.COPY_PATHS[pair].pipe
    # the 950 has every path of the hardware module
    assert set(load_chip("ascend950").latency.copy) == set(hardware.COPY_PATHS) - {("ub", "ub")}


def test_flag_limits():
    assert hardware.CROSS_CORE_FLAGS == 16
    assert load_chip().events_per_pipe_pair <= hardware.EVENTS_PER_PIPE_PAIR


def test_pipe_orders_list_every_pipe_once():
    for order in (hardware.DATAFLOW_PIPES, hardware.COMPUTE_FIRST_PIPES):
        assert sorted(order) == sorted(hardware.PIPES) and len(set(order)) == len(order)
