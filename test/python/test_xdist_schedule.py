"""tools/xdist_schedule.py reads back a run's schedule from pytest_cpu_durations' log:
each worker's CPU and last end, its files in order, and the idle tail."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _tool():
    spec = importlib.util.spec_from_file_location("xdist_schedule", ROOT / "tools" / "xdist_schedule.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_schedule_per_worker_and_idle_tail(tmp_path: Path):
    log = tmp_path / "run.log"
    log.write_text(
        "     2.00  test/python/test_a.py::test_one  gw0 1000.0\n"
        "     1.50  test/python/test_b.py::test_two[a b]  gw1 1003.0\n"  # a node id with a space
        "     0.50  test/python/test_a.py::test_three  gw0 1004.5\n"
        "     4.00  test/python/test_c.py::test_four  gw1 1012.0\n"
        "     9.99  test/python/test_old.py::test_two_column_row\n")  # the older log's row: skipped
    tool = _tool()
    rows = tool.read_rows(log)
    assert [row[1] for row in rows][1] == "test/python/test_b.py::test_two[a b]"
    assert len(rows) == 4
    text = tool.report(rows)
    assert "gw0: 2.5 CPU s, 2 tests, last ended at 4.5 s" in text
    assert "gw1: 5.5 CPU s, 2 tests, last ended at 12.0 s" in text
    assert "    test_c.py: 4.0 CPU s, ended at 12.0 s" in text
    assert text.endswith("idle tail: 7.5 s")
