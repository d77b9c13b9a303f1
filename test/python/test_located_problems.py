# pyright: reportInvalidTypeForm=false
"""What the simulator or the reference find in a kernel at run time (an access out of
bounds at the bound sizes) is a located error of the route that ran them, never a
traceback (issue 22 item 4): T.simulate raises T.CompileError at the Python line,
ascend-sim --via cce and the simulator route print it at the .mlir line with status 1."""

from __future__ import annotations

import re

import pytest

import ascend_mlir.frontend as T
from ascend_mlir.tools import ascend_sim

N = T.symbol("N")


@T.kernel(grid=2)
def whole_tiles(x: T.Tensor((N,), "f32"), z: T.Tensor((N,), "f32"), n: N):
    u = T.alloc((512,), "f32", "ub")
    off = T.block_idx() * 512
    T.copy(x[off:off + 512], u)  # whole tiles: block 1 reads past n < 1024
    T.copy(u, z[off:off + 512])


def test_dsl_simulate_reports_an_out_of_bounds_slice_at_the_python_line():
    with pytest.raises(T.CompileError) as info:
        T.simulate(whole_tiles, bind={"n": 600})
    message = str(info.value)
    assert re.match(r".*test_located_problems\.py:\d+:\d+: error: .*out of bounds", message), message
    assert T.simulate(whole_tiles, bind={"n": 1024}).ok


@pytest.mark.parametrize("via", ["sim", "cce"])
def test_ascend_sim_routes_report_it_at_the_mlir_line(tmp_path, capsys, via):
    path = tmp_path / "whole_tiles.mlir"
    path.write_text(whole_tiles.to_mlir())
    assert ascend_sim.main([str(path), "--bind", "n=600", "--via", via]) == 1
    err = capsys.readouterr().err
    assert re.search(r"whole_tiles\.mlir:\d+:\d+: error: .*out of bounds", err), err
    assert "internal error" not in err and "Traceback" not in err
