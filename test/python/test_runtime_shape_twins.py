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


def _compiled(name: str, chip: str | None = None):
    tile_module = parse((ROOT / "examples" / f"{name}.mlir").read_text())
    compiled = tile_module.clone()
    AscendCompilePass(chip=chip).apply(Context(), compiled)  # verifies its sync for every trip count
    return tile_module, compiled


def _for_c220(twins) -> dict:
    """The vector twins compiled for the 910B: printed for dav-c220, the 950's IR lacks the
    910B's V barriers and the printer refuses it."""
    return {name: _compiled(name, "ascend910b") for name in twins}


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


def test_partial_tiles_are_timed_at_their_size(twins):
    """The schedule plans a partial tile at its bound; the simulator times each run of an
    op at the tile's runtime size: shorter rows take fewer vector cycles, and a full-size
    run takes what the static plan says."""
    tile_module, compiled = twins["softmax_dyn"]
    busy = {}
    for c in (256, 64, 1):
        inputs, _ = _case(tile_module, 64, c)
        result = simulate(compiled, inputs)
        busy[c] = (result.pipe_busy["V"], result.cycles)
    assert busy[1][0] < busy[64][0] < busy[256][0]
    assert busy[1][1] < busy[64][1] < busy[256][1]


@pytest.fixture(scope="module")
def cce_units(twins):
    if via_cce.compiler() is None:
        if tools_required():
            raise RuntimeError("g++ is required (ASCEND_MLIR_REQUIRE_TOOLS=1)")
        pytest.skip("g++ not found: the CCE emulation cannot be built")
    compiled_for = {"dav-3510": twins, "dav-c220": _for_c220(twins)}
    units = {(name, arch): via_cce.unit_of(compiled_for[arch][name][1], arch, f"{name}_{arch.replace('-', '_')}")
             for name in twins for arch in ("dav-3510", "dav-c220")}
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


# ----------------------------------------------------------------------------- gemm with runtime M, N, K

TM, TK = 128, 64
# tails on all three: M and N around the 128 tile, K around the 64 step (a shorter last step)
GEMM_SIZES = ((0, 5, 5), (1, 1, 1), (TM - 1, TM + 1, TK - 1), (TM, TM, TK), (TM + 1, 2 * TM + 3, TK + 1),
              (2 * TM + 3, TM - 1, 2 * TK + 3), (3 * TM + 40, 2 * TM + 17, 5 * TK + 9), (TM + 1, 20, 0))


@pytest.fixture(scope="module")
def gemm_dyn():
    return _compiled("gemm_dyn")


def test_gemm_partial_tiles_take_runtime_mmad_sizes(gemm_dyn):
    """The mmadL1 of a partial tile takes the views' runtime sizes as real_m/k/n (the
    last K step multiplies only the K left: no zero padding)."""
    from ascend_mlir.dialects import hivm

    _, compiled = gemm_dyn
    mmads = [op for op in compiled.walk() if isinstance(op, hivm.MmadL1Op)]
    assert mmads
    for mmad in mmads:
        for size in (mmad.real_m, mmad.real_k, mmad.real_n):
            assert size.owner.name == "arith.minsi", size.owner


@pytest.mark.parametrize(("m", "n", "k"), GEMM_SIZES)
def test_gemm_twin_on_the_simulator(gemm_dyn, m, n, k):
    tile_module, compiled = gemm_dyn
    f = kernel_function(tile_module)
    binds = {"m": str(m), "n": str(n), "k": str(k), "a": f"{m}x{k}", "b": f"{k}x{n}", "c": f"{m}x{n}"}
    inputs = make_inputs(f, m + n + k, bind_arguments(f, binds))
    expected = run_reference(tile_module, inputs)
    a, b = (inputs[name].astype(np.float32) for name in ("arg0", "arg1"))
    np.testing.assert_allclose(expected["arg2"], a @ b, rtol=1e-5, atol=1e-5)
    result = simulate(compiled, inputs, perturb=m + n + k + 1)
    assert not result.races and not result.deadlock and not result.unbalanced_flags
    np.testing.assert_allclose(result.outputs["arg2"], expected["arg2"], rtol=1e-5, atol=1e-5)


def _gemm_case(tile_module, m: int, n: int, k: int, seed: int):
    f = kernel_function(tile_module)
    binds = {"m": str(m), "n": str(n), "k": str(k), "a": f"{m}x{k}", "b": f"{k}x{n}", "c": f"{m}x{n}"}
    inputs = make_inputs(f, seed, bind_arguments(f, binds))
    return inputs, run_reference(tile_module, inputs)


def test_gemm_with_k_zero_is_zeros(gemm_dyn):
    """K = 0: the K loop's one step multiplies an empty K with init, so C is zeros (not
    what L0C held); the simulator reads no never-written L0C."""
    tile_module, compiled = gemm_dyn
    inputs, expected = _gemm_case(tile_module, TM + 1, 20, 0, 3)
    assert inputs["arg2"].any()  # the output starts non-zero: zeros are written
    np.testing.assert_array_equal(expected["arg2"], np.zeros((TM + 1, 20), np.float32))
    result = simulate(compiled, inputs)
    assert not result.uninitialized_reads and not result.races
    np.testing.assert_array_equal(result.outputs["arg2"], expected["arg2"])


@pytest.fixture(scope="module")
def gemm_cce(gemm_dyn):
    if via_cce.compiler() is None:
        if tools_required():
            raise RuntimeError("g++ is required (ASCEND_MLIR_REQUIRE_TOOLS=1)")
        pytest.skip("g++ not found: the CCE emulation cannot be built")
    _, compiled = gemm_dyn
    units = {arch: via_cce.unit_of(compiled, arch, f"gemm_dyn_{arch.replace('-', '_')}")
             for arch in ("dav-3510", "dav-c220")}
    return via_cce.build(list(units.values())), units


def test_gemm_takes_its_row_pitches_as_kernel_parameters(gemm_cce):
    """memref<?x?xbf16> has a runtime row pitch: the C kernel takes one int64_t per such
    tensor after its arguments, and the views address rows with it."""
    _, units = gemm_cce
    source = units["dav-3510"].source
    assert "int64_t k, int64_t a_stride0, int64_t b_stride0, int64_t c_stride0)" in source
    assert "a + m0 * a_stride0" in source and "c + m0 * c_stride0 + n0" in source


@pytest.mark.parametrize("arch", ["dav-3510", "dav-c220"])
def test_gemm_twin_through_the_cce_emulation(gemm_dyn, gemm_cce, arch):
    """The cube path on partial tiles, printed: tails on M, N and K, K = 0, one large
    size, on both arches, equal to the reference."""
    lib, units = gemm_cce
    unit = units[arch]
    tile_module, _ = gemm_dyn
    for m, n, k in GEMM_SIZES:
        inputs, expected = _gemm_case(tile_module, m, n, k, m + n + k)
        result = via_cce.run_kernel(lib, unit, unit.kernels[0], inputs)
        assert result.error is None, ((m, n, k), result.error)
        np.testing.assert_allclose(result.outputs["arg2"], expected["arg2"], rtol=1e-5, atol=1e-5,
                                   err_msg=f"m={m} n={n} k={k}")


# ----------------------------------------------------------------------------- random sizes (--slow)


def _random_cases(request) -> list[tuple[str, dict[str, str]]]:
    """Random sizes of the twins (none in CI: the fixed sizes above are its cases; 500
    with --slow): rows/columns from empty to past several tiles, M, N, K of the GEMM."""
    import random

    if not request.config.getoption("--slow", default=False):
        return []
    rng = random.Random(17)
    cases = []
    for i in range(500):
        name = (*TWINS, "gemm_dyn")[i % 4]
        if name == "gemm_dyn":
            m, n, k = rng.randint(0, 3 * TM + 7), rng.randint(0, 3 * TM + 7), rng.randint(0, 6 * TK + 5)
            cases.append((name, {"m": str(m), "n": str(n), "k": str(k), "a": f"{m}x{k}", "b": f"{k}x{n}",
                                 "c": f"{m}x{n}"}))
        else:
            cases.append((name, {"m": str(rng.randint(0, 12 * T + 9)), "c": str(rng.randint(0, 300))}))
    return cases


def test_twins_at_random_sizes(request, twins, gemm_dyn):
    """Under --slow: 500 random sizes on the perturbed simulator, and through the CCE
    emulation (dav-3510 and dav-c220 in turn)."""
    cases = _random_cases(request)
    if not cases:
        pytest.skip("random sizes run with --slow (the fixed sizes above are the CI cases)")
    compiled_of = {**twins, "gemm_dyn": gemm_dyn}
    units = {}
    lib = None
    if via_cce.compiler() is not None:
        c220 = {**_for_c220(twins), "gemm_dyn": gemm_dyn}
        units = {(name, arch): via_cce.unit_of((c220 if arch == "dav-c220" else compiled_of)[name][1], arch,
                                               f"rnd_{name}_{arch.replace('-', '_')}")
                 for name in compiled_of for arch in ("dav-3510", "dav-c220")}
        lib = via_cce.build(list(units.values()))
    for i, (name, binds) in enumerate(cases):
        tile_module, compiled = compiled_of[name]
        f = kernel_function(tile_module)
        inputs = make_inputs(f, i, bind_arguments(f, binds))
        expected = run_reference(tile_module, inputs)
        result = simulate(compiled, inputs, perturb=i + 1)
        assert not result.races and not result.deadlock and not result.unbalanced_flags, (name, binds)
        for key, want in expected.items():
            np.testing.assert_allclose(result.outputs[key], want, rtol=1e-5, atol=1e-5, err_msg=f"{name} {binds}")
        if lib is not None:
            unit = units[(name, ("dav-3510", "dav-c220")[i % 2])]
            run = via_cce.run_kernel(lib, unit, unit.kernels[0], inputs)
            assert run.error is None, (name, binds, run.error)
            for key, want in expected.items():
                np.testing.assert_allclose(run.outputs[key], want, rtol=1e-4, atol=1e-5, err_msg=f"{name} {binds}")
