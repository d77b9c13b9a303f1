"""Property test of runtime shapes (issue 17): random vector kernels over a runtime
length n (GM tensors `memref<?xf32>`, an `index` argument, the last tile partial), each
compiled once and run at n = 0, 1, T-1, T, T+1, 2T+3 and one large size with a tail:
on the simulator under --perturb (no race, no deadlock, no flag left set, reference
match) and through the CCE emulation (reference match). 63 cases in CI (9 kernels x 7
sizes), 504 with --slow (72 kernels). All CCE units are built in one g++ call."""

from __future__ import annotations

import random

import numpy as np
import pytest
from xdsl.context import Context

from ascend_mlir.sim import simulate, via_cce
from ascend_mlir.sim.binding import bind_arguments
from ascend_mlir.sim.reference import kernel_function, make_inputs, run_reference
from ascend_mlir.testing import tools_required
from ascend_mlir.transforms.ascend_compile import AscendCompilePass

from test_reference import parse

GM = "memref<?xf32, #hivm.address_space<gm>>"
GM_VIEW = "memref<?xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>"
UB_VIEW = "memref<?xf32, strided<[1]>, #hivm.address_space<ub>>"
BINARY = ("add", "sub", "mul", "max", "min")
UNARY = ("relu", "abs", "exp")


def random_kernel(seed: int) -> tuple[str, int, int]:
    """(kernel text, tile T, grid) of a random runtime-length vector kernel."""
    rng = random.Random(seed)
    tile, grid, stages = rng.choice((64, 128, 256, 512)), rng.choice((1, 2, 4)), rng.choice((1, 2, 3))
    n_in = rng.randint(1, 3)
    ub = f"memref<{tile}xf32, #hivm.address_space<ub>>"
    params = [f"%in{i}: {GM}" for i in range(n_in)] + [f"%out: {GM}", "%n: index"]
    head = ["%c0 = arith.constant 0 : index", "%c1 = arith.constant 1 : index",
            f"%cT = arith.constant {tile} : index", f"%cG = arith.constant {grid} : index",
            f"%cTm1 = arith.constant {tile - 1} : index", "%b = tile.block_idx : index",
            "%nt0 = arith.addi %n, %cTm1 : index", "%ntiles = arith.divui %nt0, %cT : index"]
    body = ["%off = arith.muli %t, %cT : index", "%rest = arith.subi %n, %off : index",
            "%len = arith.minsi %rest, %cT : index"]
    values = []
    for i in range(n_in):
        head.append(f"%u{i} = memref.alloc() : {ub}")
        body += [f"%g{i} = memref.subview %in{i}[%off] [%len] [1] : {GM} to {GM_VIEW}",
                 f"%v{i} = memref.subview %u{i}[0] [%len] [1] : {ub} to {UB_VIEW}",
                 f"tile.copy ins(%g{i} : {GM_VIEW}) outs(%v{i} : {UB_VIEW})"]
        values.append(f"%v{i}")
    for k in range(rng.randint(1, 4)):
        j = n_in + k
        head.append(f"%u{j} = memref.alloc() : {ub}")
        body.append(f"%v{j} = memref.subview %u{j}[0] [%len] [1] : {ub} to {UB_VIEW}")
        choice = rng.random()
        if choice < 0.5:
            a, b = rng.choice(values), rng.choice(values)
            body.append(f"tile.{rng.choice(BINARY)} ins({a}, {b} : {UB_VIEW}, {UB_VIEW}) outs(%v{j} : {UB_VIEW})")
        elif choice < 0.8:
            body.append(f"tile.{rng.choice(UNARY)} ins({rng.choice(values)} : {UB_VIEW}) outs(%v{j} : {UB_VIEW})")
        else:
            scale = rng.choice((0.5, -2.0, 3.0))
            head.append(f"%s{j} = arith.constant {scale} : f32")
            body.append(f"tile.mul ins({rng.choice(values)}, %s{j} : {UB_VIEW}, f32) outs(%v{j} : {UB_VIEW})")
        values.append(f"%v{j}")
    body += [f"%go = memref.subview %out[%off] [%len] [1] : {GM} to {GM_VIEW}",
             f"tile.copy ins({values[-1]} : {UB_VIEW}) outs(%go : {GM_VIEW})"]
    lines = [f"func.func @dyn_{seed}({', '.join(params)}) attributes {{tile.kernel, tile.grid = {grid} : i64}} {{"]
    lines += ["  " + line for line in head]
    lines.append("  scf.for %t = %b to %ntiles step %cG {")
    lines += ["    " + line for line in body]
    lines += [f"  }} {{tile.num_stages = {stages} : i64}}", "  return", "}"]
    return "\n".join(lines) + "\n", tile, grid


def _sizes(tile: int, grid: int) -> tuple[int, ...]:
    return (0, 1, tile - 1, tile, tile + 1, 2 * tile + 3, 3 * grid * tile + 17)


def _kernels(request) -> range:
    return range(72 if request.config.getoption("--slow", default=False) else 9)


@pytest.fixture(scope="module")
def compiled_kernels(request):
    out = []
    for seed in _kernels(request):
        text, tile, grid = random_kernel(seed)
        tile_module = parse(text)
        compiled = tile_module.clone()
        # odd seeds are printed for dav-c220: compiled for the 910B (its V barriers), and
        # simulated under the 910B's same-pipe rule
        AscendCompilePass(chip=("ascend950", "ascend910b")[seed % 2]).apply(Context(), compiled)
        out.append((seed, text, tile, grid, tile_module, compiled))
    return out


def _check(outputs, expected, context):
    for name, want in expected.items():
        np.testing.assert_allclose(outputs[name], want, rtol=1e-5, atol=1e-6, equal_nan=True, err_msg=f"{name}\n{context}")


def test_random_runtime_kernels_on_the_simulator(compiled_kernels):
    for seed, text, tile, grid, tile_module, compiled in compiled_kernels:
        f = kernel_function(tile_module)
        for n in _sizes(tile, grid):
            inputs = make_inputs(f, seed * 1000 + n, bind_arguments(f, {"n": str(n)}))
            expected = run_reference(tile_module, inputs)
            result = simulate(compiled, inputs, perturb=seed * 1000 + n + 1)
            context = f"n={n}\n{text}"
            assert not result.races, "\n".join(r.message() for r in result.races) + context
            assert not result.deadlock and not result.unbalanced_flags and not result.double_sets, context
            _check(result.outputs, expected, context)


def test_random_runtime_kernels_through_cce(compiled_kernels):
    if via_cce.compiler() is None:
        if tools_required():
            pytest.fail("g++ is required (ASCEND_MLIR_REQUIRE_TOOLS=1)")
        pytest.skip("g++ not found: the CCE emulation cannot be built")
    units = [via_cce.unit_of(compiled, ("dav-3510", "dav-c220")[seed % 2], f"dyn{seed}")
             for seed, _, _, _, _, compiled in compiled_kernels]
    lib = via_cce.build(units)
    for unit, (seed, text, tile, grid, tile_module, _) in zip(units, compiled_kernels, strict=True):
        f = kernel_function(tile_module)
        for n in _sizes(tile, grid):
            inputs = make_inputs(f, seed * 1000 + n, bind_arguments(f, {"n": str(n)}))
            expected = run_reference(tile_module, inputs)
            result = via_cce.run_kernel(lib, unit, unit.kernels[0], inputs)
            assert result.error is None, f"{result.error}\nn={n}\n{text}"
            _check(result.outputs, expected, f"n={n}\n{text}")
