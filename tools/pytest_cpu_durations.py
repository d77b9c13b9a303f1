"""pytest plugin: CPU seconds per test and per file, not wall time.

On a machine shared by several people wall time measures the load; CPU time (user +
system, of the test process and of the children it waited for: g++, mlir-opt,
bishengir) measures the test. A module-scoped fixture's set-up counts to the first test
that asks for it, as in pytest's own --durations.

    PYTHONPATH=tools python -m pytest -p no:xdist -p pytest_cpu_durations \\
        --cpu-durations=30 test/python/test_foo.py

prints the 30 most expensive tests and every file's sum (the unit --dist loadfile hands a
worker). Use it without xdist: each worker would keep its own table. `--cpu-durations-log
FILE` also appends each test's row to FILE as it ends, so a long run can be read before
it finishes (and under xdist every worker appends there: one table for the whole run).
Each log row also says which xdist worker ran the test and the wall-clock second it
ended, so a run's schedule can be read back: when each worker took up each file, and how
long one worker idled at the end while the other finished its last file.
"""

from __future__ import annotations

import os
import resource
import time
from collections import defaultdict
from collections.abc import Generator

import pytest

_ROWS: list[tuple[float, str]] = []


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--cpu-durations", type=int, default=None, metavar="N",
                     help="show the N tests that took the most CPU seconds, and every file's sum")
    parser.addoption("--cpu-durations-log", default=None, metavar="FILE",
                     help="append each test's CPU seconds and node id to FILE as the test ends")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    start = _cpu_seconds()
    yield
    seconds = _cpu_seconds() - start
    _ROWS.append((seconds, item.nodeid))
    log = item.config.getoption("--cpu-durations-log")
    if log:
        with open(log, "a", encoding="utf-8") as out:  # one short line per write: appends do not interleave
            worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
            out.write(f"{seconds:9.2f}  {item.nodeid}  {worker} {time.time():.1f}\n")


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    count = config.getoption("--cpu-durations")
    if count is None or not _ROWS:
        return
    write = terminalreporter.write_line
    terminalreporter.section("CPU seconds per test (self + waited children)")
    for seconds, nodeid in sorted(_ROWS, reverse=True)[:count]:
        write(f"{seconds:9.2f}  {nodeid}")
    per_file: dict[str, float] = defaultdict(float)
    for seconds, nodeid in _ROWS:
        per_file[nodeid.split("::")[0]] += seconds
    terminalreporter.section("CPU seconds per file")
    for path, seconds in sorted(per_file.items(), key=lambda item: -item[1]):
        write(f"{seconds:9.2f}  {path}")
    write(f"{sum(per_file.values()):9.2f}  total over {len(_ROWS)} tests")
