"""The runtime-shape twins of the examples (issue 17 item 9): each compiled once and run
at m = 0, 1, T-1, T, T+1, 2T+3 and one large row count (T = 16 rows a tile, 4 blocks),
each with another runtime row length c (a full row, one element, a partial row, an empty
row), on the simulator under perturbation (no race, no deadlock, no flag left set, equal
to the numpy reference) and through the CCE emulation on both arches (one g++ build).
The reductions read only the valid part of each row: the reference reduces the view,
and an empty row writes nothing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context

from ascend_mlir.sim import simulate, via_cce
from ascend_mlir.sim.binding import bind_arguments
from ascend_mlir.sim.reference import kernel_function, make_inputs, run_reference
from ascend_mlir.testing import tools_required
from ascend_mlir.transforms.ascend_compile import AscendCompilePass

from test_reference import parse

ROOT = Path(__file__).resolve().parents[2]
TWINS = ("softmax_dyn", "rmsnorm_dyn", "layernorm_dyn")
T = 16
# (rows m, row length c): every row count of the issue, each with a different row length
SIZES = ((0, 256), (1, 1), (T - 1, 255), (T, 256), (T + 1, 200), (2 * T + 3, 37), (16 * T * 4 + 5, 256), (20, 0))


def _compiled(name: str):
    tile_module = parse((ROOT / "examples" / f"{name}.mlir").read_text())
    compiled = tile_module.clone()
    AscendCompilePass().apply(Context(), compiled)  # verifies its sync for every trip count
    return tile_module, compiled


@pytest.fixture(scope="module")
def twins():
    return {name: _compiled(name) for name in TWINS}


def _case(tile_module, m: int, c: int):
    f = kernel_function(tile_module)
    inputs = make_inputs(f, m * 7 + c, bind_arguments(f, {"m": str(m), "c": str(c)}))
    return inputs, run_reference(tile_module, inputs)


@pytest.mark.parametrize(("m", "c"), SIZES)
@pytest.mark.parametrize("name", TWINS)
def test_twin_on_the_simulator(twins, name, m, c):
    tile_module, compiled = twins[name]
    inputs, expected = _case(tile_module, m, c)
    result = simulate(compiled, inputs, perturb=m + c + 1)
    assert not result.races and not result.deadlock and not result.unbalanced_flags
    for key, want in expected.items():
        np.testing.assert_allclose(result.outputs[key], want, rtol=1e-5, atol=1e-6, err_msg=f"{key} m={m} c={c}")


def test_the_reference_reads_only_the_valid_columns(twins):
    """Softmax rows of c columns sum to 1 over those columns, whatever lies beyond them in
    GM (the untouched part of y keeps its input values)."""
    tile_module, _ = twins["softmax_dyn"]
    inputs, expected = _case(tile_module, 21, 100)
    y = expected["arg1"]
    np.testing.assert_allclose(y[:21, :100].sum(axis=1), np.ones(21), rtol=1e-5)
    x = inputs["arg0"][:21, :100]
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(y[:21, :100], e / e.sum(axis=1, keepdims=True), rtol=1e-5)
    np.testing.assert_array_equal(y[:, 100:], inputs["arg1"][:, 100:])


@pytest.fixture(scope="module")
def cce_units(twins):
    if via_cce.compiler() is None:
        if tools_required():
            raise RuntimeError("g++ is required (ASCEND_MLIR_REQUIRE_TOOLS=1)")
        pytest.skip("g++ not found: the CCE emulation cannot be built")
    units = {(name, arch): via_cce.unit_of(compiled, arch, f"{name}_{arch.replace('-', '_')}")
             for name, (_, compiled) in twins.items() for arch in ("dav-3510", "dav-c220")}
    return via_cce.build(list(units.values())), units


@pytest.mark.parametrize("arch", ["dav-3510", "dav-c220"])
@pytest.mark.parametrize("name", TWINS)
def test_twin_through_the_cce_emulation(twins, cce_units, name, arch):
    lib, units = cce_units
    unit = units[(name, arch)]
    tile_module, _ = twins[name]
    for m, c in SIZES:
        inputs, expected = _case(tile_module, m, c)
        result = via_cce.run_kernel(lib, unit, unit.kernels[0], inputs)
        assert result.error is None, (m, c, result.error)
        for key, want in expected.items():
            np.testing.assert_allclose(result.outputs[key], want, rtol=1e-4, atol=1e-5, err_msg=f"{key} m={m} c={c}")
