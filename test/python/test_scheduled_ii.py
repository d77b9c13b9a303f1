"""Scheduled II = measured II (issue 18): the steady-state II of each innermost scheduled
loop, measured in the simulator, is within 5% of the II the scheduler chose.

Measured as bench/e2e does: on the examples, the median distance between consecutive
issues of the loop's op with the largest ii that is unique in the body; on a generated
chain kernel, what one more iteration costs ((cycles at 16 trips - cycles at 8) / 8).
Not here yet: chain kernels of 4 or more chains (32+ ops), where the code has one drain
per set point and the scheduler reserves one per pipe (bench/README.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "e2e"
sys.path.insert(0, str(BENCH))
import run as e2e  # noqa: E402
from chains import chain_kernel  # noqa: E402


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
