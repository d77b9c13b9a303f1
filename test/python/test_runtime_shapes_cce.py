"""Runtime shapes through the CCE route (issue 17): sizes and scalars are kernel
arguments of the printed C; one build of the emulation runs at every size and matches
the reference."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context

from ascend_mlir.sim import via_cce
from ascend_mlir.sim.binding import bind_arguments
from ascend_mlir.sim.reference import kernel_function, make_inputs, run_reference
from ascend_mlir.targets.cce import print_cce
from ascend_mlir.testing import tools_required
from ascend_mlir.transforms.ascend_compile import AscendCompilePass

from test_reference import parse

ROOT = Path(__file__).resolve().parents[2]
VECADD_DYN = ROOT / "test" / "sim" / "Inputs" / "vecadd_dyn.mlir"
TILE = 512

if via_cce.compiler() is None:
    if tools_required():
        raise RuntimeError("g++ is required (ASCEND_MLIR_REQUIRE_TOOLS=1)")
    pytest.skip("g++ not found: the CCE emulation cannot be built", allow_module_level=True)


@pytest.fixture(scope="module")
def kernel():
    tile_module = parse(VECADD_DYN.read_text())
    compiled = tile_module.clone()
    AscendCompilePass().apply(Context(), compiled)
    return tile_module, compiled


def test_sizes_and_scalars_are_kernel_arguments(kernel):
    _, compiled = kernel
    text = print_cce(compiled, "dav-3510")
    assert "void vecadd_dyn(__gm__ float *x, __gm__ float *y, __gm__ float *z, int64_t n)" in text
    assert "const int64_t len = (rest < 512 ? rest : 512);" in text
    assert "asc_copy_gm2ub_align(vx, xs, 1, len * 4," in text
    assert "vf_add_f32(vz, vx, vy, len);" in text


@pytest.mark.parametrize("arch", ["dav-3510", "dav-c220"])
def test_one_build_matches_the_reference_at_every_size(kernel, arch):
    tile_module, compiled = kernel
    unit = via_cce.unit_of(compiled, arch, f"runtime_shapes_{arch}")
    lib = via_cce.build([unit])
    f = kernel_function(tile_module)
    for n in (0, 1, TILE - 1, TILE, TILE + 1, 2 * TILE + 3, 8 * TILE * 2 + 77):
        inputs = make_inputs(f, n, bind_arguments(f, {"n": str(n)}))
        expected = run_reference(tile_module, inputs)
        result = via_cce.run_kernel(lib, unit, unit.kernels[0], inputs)
        assert result.error is None, result.error
        for name, want in expected.items():
            np.testing.assert_array_equal(result.outputs[name], want, err_msg=f"{name} at n={n}")


ROWMAX = ROOT / "test" / "sim" / "Inputs" / "rowmax256_dyn.mlir"


def test_row_reduction_of_runtime_rows_and_columns_through_cce():
    tile_module = parse(ROWMAX.read_text())
    compiled = tile_module.clone()
    AscendCompilePass().apply(Context(), compiled)
    unit = via_cce.unit_of(compiled, "dav-3510", "runtime_rowmax")
    lib = via_cce.build([unit])
    f = kernel_function(tile_module)
    for m, c in ((0, 3), (1, 1), (15, 255), (16, 256), (37, 100), (5, 0)):
        inputs = make_inputs(f, m + c, bind_arguments(f, {"m": str(m), "c": str(c)}))
        expected = run_reference(tile_module, inputs)
        result = via_cce.run_kernel(lib, unit, unit.kernels[0], inputs)
        assert result.error is None, result.error
        np.testing.assert_array_equal(result.outputs["arg1"], expected["arg1"], err_msg=f"m={m} c={c}")


def test_gm_tensor_with_a_runtime_row_length_is_a_located_cce_error():
    from ascend_mlir.diagnostics import OpError

    tile_module = parse((ROOT / "test" / "sim" / "Inputs" / "rowmax_dyn.mlir").read_text())
    AscendCompilePass().apply(Context(), tile_module)
    with pytest.raises(OpError, match="runtime inner dimension is not printed"):
        print_cce(tile_module, "dav-3510")
