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


def test_gm_tensor_with_a_runtime_row_length_takes_its_pitch():
    """memref<?x?xf32>: once a located error (its row stride was no kernel parameter), now
    the pitch is a parameter and the rows are read at the caller's pitch (dav-3510)."""
    tile_module = parse((ROOT / "test" / "sim" / "Inputs" / "rowmax_dyn.mlir").read_text())
    compiled = tile_module.clone()
    AscendCompilePass().apply(Context(), compiled)
    unit = via_cce.unit_of(compiled, "dav-3510", "runtime_rowmax_pitch")
    assert "int64_t x_stride0)" in unit.source
    lib = via_cce.build([unit])
    f = kernel_function(tile_module)
    for m, c, pitch in ((37, 100, 130), (16, 256, 300)):
        binds = {"m": str(m), "c": str(c), "x": f"{m}x{pitch}"}
        inputs = make_inputs(f, m + c, bind_arguments(f, binds))
        expected = run_reference(tile_module, inputs)
        result = via_cce.run_kernel(lib, unit, unit.kernels[0], inputs)
        assert result.error is None, result.error
        np.testing.assert_array_equal(result.outputs["arg1"], expected["arg1"], err_msg=f"m={m} c={c} {pitch}")


# ----------------------------------------------------------------------------- a runtime row pitch

SOFTMAX_DYN = ROOT / "examples" / "softmax_dyn.mlir"


@pytest.fixture(scope="module")
def softmax_pitch():
    """softmax_dyn, whose x and y have a runtime row pitch (memref<?x?xf32>): the
    printed kernel takes each pitch as a parameter of its own."""
    text = SOFTMAX_DYN.read_text()
    assert "%x: memref<?x?xf32, #hivm.address_space<gm>>" in text
    tile_module = parse(text)
    compiled = {}
    # each arch's code compiled for its chip and the CCE route (the 910B's V barriers and
    # reduction steps are in its IR only)
    for arch, chip in (("dav-3510", "ascend950"), ("dav-c220", "ascend910b")):
        compiled[arch] = tile_module.clone()
        AscendCompilePass(chip=chip, target="cce").apply(Context(), compiled[arch])
    return tile_module, compiled


def test_a_runtime_row_pitch_is_a_kernel_parameter(softmax_pitch):
    _, compiled = softmax_pitch
    for arch in ("dav-3510", "dav-c220"):
        text = print_cce(compiled[arch], arch)
        assert "int64_t m, int64_t c, int64_t x_stride0, int64_t y_stride0)" in text, arch
        assert "row0 * x_stride0" in text and "row0 * y_stride0" in text, arch


@pytest.mark.parametrize("arch", ["dav-3510", "dav-c220"])
def test_a_runtime_row_pitch_through_the_emulation(softmax_pitch, arch):
    """Rows 300 (and 264, 7) elements apart, not the 256 of the tile: the copies step
    through GM by the pitch the caller passes, and the columns past c stay untouched."""
    tile_module, compiled = softmax_pitch
    unit = via_cce.unit_of(compiled[arch], arch, f"softmax_pitch_{arch.replace('-', '_')}")
    lib = via_cce.build([unit])
    f = kernel_function(tile_module)
    for m, c, pitch in ((37, 200, 300), (16, 256, 264), (5, 1, 7), (0, 3, 9)):
        binds = {"m": str(m), "c": str(c), "x": f"{m}x{pitch}", "y": f"{m}x{pitch}"}
        inputs = make_inputs(f, m + pitch, bind_arguments(f, binds))
        expected = run_reference(tile_module, inputs)
        np.testing.assert_array_equal(expected["arg1"][:, c:], inputs["arg1"][:, c:])
        result = via_cce.run_kernel(lib, unit, unit.kernels[0], inputs)
        assert result.error is None, ((m, c, pitch), result.error)
        for name, want in expected.items():
            np.testing.assert_allclose(result.outputs[name], want, rtol=1e-4, atol=1e-5, err_msg=f"{name} {m} {c} {pitch}")


def test_a_runtime_row_pitch_on_the_simulator(softmax_pitch):
    from ascend_mlir.sim import simulate

    tile_module, compiled = softmax_pitch
    f = kernel_function(tile_module)
    inputs = make_inputs(f, 5, bind_arguments(f, {"m": "37", "c": "200", "x": "37x300", "y": "37x300"}))
    expected = run_reference(tile_module, inputs)
    for arch, module in compiled.items():  # each compiled for its chip: its sync under that chip's rule
        result = simulate(module, inputs, perturb=3)
        assert not result.races and not result.deadlock and not result.unbalanced_flags, arch
        np.testing.assert_allclose(result.outputs["arg1"], expected["arg1"], rtol=1e-5, atol=1e-6, err_msg=arch)


def test_a_kernel_too_large_to_recheck_is_said_not_printed_silently(kernel, monkeypatch, capsys):
    """The printer re-checks the sync of what it prints; where that check is over
    verify-sync's budget (a kernel with many runtime loops and branches), it
    says so on stderr instead of printing as if it had checked (here the budget is made 0)."""
    from ascend_mlir.chips import resolve_chip
    from ascend_mlir.targets.cce.prepared import check_prepared
    from ascend_mlir.transforms import verify_sync

    _, compiled = kernel
    chip = resolve_chip(compiled, None, None)
    check_prepared(compiled, chip)
    assert "not re-verified" not in capsys.readouterr().err
    monkeypatch.setattr(verify_sync, "MAX_TRIP_RUNS", 0)
    check_prepared(compiled, chip)
    err = capsys.readouterr().err
    assert "remark: -t cce: the kernel's sync is too large to re-check" in err and "not re-verified here" in err
