"""Matmul tails through the CCE route: M, N and K that are not multiples of 16 (the cube's
fractal), with and without a transposed B, on both arches, compiled with ascend-compile,
printed, built against tools/cce-emu and run; the results must equal the reference
interpreter's. Before plan-memory sized L1 and L0C buffers by their fractals, an M = 17 A
tile took 1536 of the 2048 bytes its NZ layout fills and the next buffer overwrote its
last rows (issue 23: `--via cce` max abs errors 2 to 4 while the simulator matched)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context

from ascend_mlir import hardware
from ascend_mlir.diagnostics import parse_module
from ascend_mlir.dialects import register_dialects
from ascend_mlir.sim import via_cce
from ascend_mlir.sim.reference import kernel_function, make_inputs, run_reference
from ascend_mlir.testing import tools_required
from ascend_mlir.transforms.ascend_compile import AscendCompilePass

ARCHS = ("dav-3510", "dav-c220")
# (M, K, N, B transposed): tails in each dimension alone and together, one-element tiles,
# and K long enough (with M = 256) that the K loop takes several L0 steps with a short last one
SHAPES = [
    (17, 32, 32, False), (20, 32, 32, True), (32, 17, 32, False), (32, 32, 17, True), (1, 1, 1, False),
    (1, 1, 1, True), (33, 47, 5, False), (63, 9, 50, True), (45, 63, 31, False), (256, 100, 32, False),
    (256, 100, 20, True),
]

if via_cce.compiler() is None:
    if tools_required():
        raise RuntimeError("g++ is required (ASCEND_MLIR_REQUIRE_TOOLS=1)")
    pytest.skip("g++ not found: the CCE emulation cannot be built", allow_module_level=True)


def matmul_kernel(m: int, k: int, n: int, b_t: bool) -> str:
    def mem(shape: str, elem: str, scope: str) -> str:
        return f"memref<{shape}x{elem}, #hivm.address_space<{scope}>>"

    a, b, c = f"{m}x{k}", f"{n}x{k}" if b_t else f"{k}x{n}", f"{m}x{n}"
    attr = "{transpose_b} " if b_t else ""
    return f"""module {{
  func.func @mm(%a: {mem(a, 'bf16', 'gm')}, %b: {mem(b, 'bf16', 'gm')}, %c: {mem(c, 'f32', 'gm')})
      attributes {{tile.kernel, tile.grid = 1 : i64}} {{
    %true = arith.constant true
    %la = memref.alloc() : {mem(a, 'bf16', 'cbuf')}
    %lb = memref.alloc() : {mem(b, 'bf16', 'cbuf')}
    %acc = memref.alloc() : {mem(c, 'f32', 'cc')}
    tile.copy ins(%a : {mem(a, 'bf16', 'gm')}) outs(%la : {mem(a, 'bf16', 'cbuf')})
    tile.copy ins(%b : {mem(b, 'bf16', 'gm')}) outs(%lb : {mem(b, 'bf16', 'cbuf')})
    tile.matmul {attr}ins(%la, %lb : {mem(a, 'bf16', 'cbuf')}, {mem(b, 'bf16', 'cbuf')}) outs(%acc : {mem(c, 'f32', 'cc')}) init(%true : i1)
    tile.copy ins(%acc : {mem(c, 'f32', 'cc')}) outs(%c : {mem(c, 'f32', 'gm')})
    return
  }}
}}
"""


def _name(shape: tuple[int, int, int, bool]) -> str:
    m, k, n, b_t = shape
    return f"m{m}k{k}n{n}{'_bt' if b_t else ''}"


@pytest.fixture(scope="module")
def tail_runs():
    units, cases = [], {}
    for shape in SHAPES:
        text = matmul_kernel(*shape)
        tile_module = parse_module(register_dialects(Context()), text, f"{_name(shape)}.mlir")
        inputs = make_inputs(kernel_function(tile_module), 7)
        expected = run_reference(tile_module, inputs)
        compiled = tile_module.clone()
        AscendCompilePass().apply(Context(), compiled)
        for arch in ARCHS:
            unit = via_cce.unit_of(compiled, arch, f"{_name(shape)}_{arch}")
            units.append(unit)
            cases[(shape, arch)] = (unit, inputs, expected)
    return via_cce.build(units), cases


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("shape", SHAPES, ids=_name)
def test_matmul_tail_through_cce_matches_reference(tail_runs, shape, arch):
    lib, cases = tail_runs
    unit, inputs, expected = cases[(shape, arch)]
    result = via_cce.run_kernel(lib, unit, unit.kernels[0], inputs)
    assert result.error is None, result.error
    np.testing.assert_allclose(result.outputs["arg2"], expected["arg2"], rtol=1e-5, atol=1e-5)


def test_l1_and_l0c_buffers_take_their_padded_fractals():
    assert hardware.stored_bytes("cbuf", (17, 32), 2) == 32 * 64  # rows to 16, 64-byte rows
    assert hardware.stored_bytes("cbuf", (16, 7), 2) == 16 * 32  # columns to 32 bytes
    assert hardware.stored_bytes("cc", (17, 17), 4) == 32 * 32 * 4  # 16 x 16 fp32 fractals
    assert hardware.stored_bytes("ub", (3, 7), 4) == 84  # UB is dense
    assert hardware.stored_bytes("cbuf", (64,), 2) == 128  # only 2-D tiles are fractal


def test_softmax_of_28_byte_rows_runs_on_dav_3510():
    """Issue 23: a 3 x 7 softmax printed dav-3510 C whose emulation faulted in
    asc_loadalign (address 28); its rows now go through the unaligned helpers."""
    path = Path(__file__).resolve().parents[1] / "targets" / "cce" / "odd-rows.mlir"
    tile_module = parse_module(register_dialects(Context()), path.read_text(), path.name)
    inputs = make_inputs(kernel_function(tile_module), 3)
    expected = run_reference(tile_module, inputs)
    compiled = tile_module.clone()
    AscendCompilePass().apply(Context(), compiled)
    unit = via_cce.unit_of(compiled, "dav-3510", "softmax_3x7")
    result = via_cce.run_kernel(via_cce.build([unit]), unit, unit.kernels[0], inputs)
    assert result.error is None, result.error
    np.testing.assert_allclose(result.outputs["arg1"], expected["arg1"], rtol=1e-6, atol=1e-7)
