"""Sync around nested loops that may run 0 times (issue 17): a loop-carried flag of an
outer loop, set after a nested loop and waited before it, is ordered before its next set
only by the nested loop's own flags, and only when that loop runs. ascend-insert-sync
places a credit (wait pipe -> set pipe) around the nested loop where its trip count can
be 0 (`_zero_trip_credits`). Triangular and zero-trip shapes nothing was tuned to: the
nested loop runs 0 times in every outer iteration, only in the first, only in the last;
two nested loops in sequence; a nested loop on the cube side of a MIX kernel. Each is
compiled once (verify-sync proves its sync for every trip count) and run on the
perturbed simulator at several sizes against the reference interpreter; removing a
set/wait pair around the nested loop makes verify-sync refuse it."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import scf

import ascend_mlir.frontend as T
from ascend_mlir.dialects import ascend, hivm
from ascend_mlir.op_errors import OpError
from ascend_mlir.sim import simulate
from ascend_mlir.sim.binding import bind_arguments
from ascend_mlir.sim.reference import kernel_function, make_inputs, run_reference
from ascend_mlir.transforms.ascend_compile import AscendCompilePass
from ascend_mlir.transforms.verify_sync import VerifySyncPass

M, N = T.symbol("M"), T.symbol("N")
W = 16  # columns per tile


def _row_kernel(count):
    """y[r, c] = 2 x[r, c] for the first `count(r, n)` columns of row r (the nested
    loop's trip count ceil(count / W), partial last tile), rows over 2 blocks."""

    @T.kernel(grid=2, name=f"rows_{count.__name__}")
    def rows(x: T.Tensor((M, N), "f32"), y: T.Tensor((M, N), "f32"), m: M, n: N):  # pyright: ignore[reportInvalidTypeForm]
        ux = T.alloc((1, W), "f32", "ub")
        uy = T.alloc((1, W), "f32", "ub")
        for r in T.pipelined((T.block_idx(), m, 2), num_stages=1):  # pyright: ignore[reportArgumentType]
            valid = count(r, m, n)
            for t in T.pipelined((0, (valid + W - 1) // W, 1), num_stages=2):  # pyright: ignore[reportArgumentType]
                c0 = t * W
                cols = T.min(valid - c0, W)
                T.copy(x[r:r + 1, c0:c0 + cols], ux[0:1, 0:cols])
                T.mul(ux[0:1, 0:cols], 2.0, uy[0:1, 0:cols])
                T.copy(uy[0:1, 0:cols], y[r:r + 1, c0:c0 + cols])

    return rows


def triangle(r, m, n):
    """r + 1 columns (at most n): 0 trips in every row when n = 0."""
    return T.min(r + 1, n)


def first_empty(r, m, n):
    """r columns: 0 trips in the first row."""
    return T.min(r, n)


def last_empty(r, m, n):
    """m - 1 - r columns: 0 trips in the last row."""
    return T.min(m - 1 - r, n)


@T.kernel(grid=2)
def two_loops(x: T.Tensor((M, N), "f32"), y: T.Tensor((M, N), "f32"), z: T.Tensor((M, N), "f32"),  # pyright: ignore[reportInvalidTypeForm]
              m: M, n: N):  # pyright: ignore[reportInvalidTypeForm]
    """Two nested loops in sequence on the same buffers: y = 2x over the first r + 1
    columns of row r, then z = x + 1 over its first r columns (either may run 0 times)."""
    ux = T.alloc((1, W), "f32", "ub")
    uy = T.alloc((1, W), "f32", "ub")
    for r in T.pipelined((T.block_idx(), m, 2), num_stages=1):  # pyright: ignore[reportArgumentType]
        lower = T.min(r + 1, n)
        for t in T.pipelined((0, (lower + W - 1) // W, 1), num_stages=2):  # pyright: ignore[reportArgumentType]
            c0 = t * W
            cols = T.min(lower - c0, W)
            T.copy(x[r:r + 1, c0:c0 + cols], ux[0:1, 0:cols])
            T.mul(ux[0:1, 0:cols], 2.0, uy[0:1, 0:cols])
            T.copy(uy[0:1, 0:cols], y[r:r + 1, c0:c0 + cols])
        upper = T.min(r, n)
        for t in T.pipelined((0, (upper + W - 1) // W, 1), num_stages=2):  # pyright: ignore[reportArgumentType]
            c0 = t * W
            cols = T.min(upper - c0, W)
            T.copy(x[r:r + 1, c0:c0 + cols], ux[0:1, 0:cols])
            T.add(ux[0:1, 0:cols], 1.0, uy[0:1, 0:cols])
            T.copy(uy[0:1, 0:cols], z[r:r + 1, c0:c0 + cols])


@T.kernel(grid=2)
def cube_triangle(a: T.Tensor((M, 16), "bf16"), b: T.Tensor((16, N), "bf16"), y: T.Tensor((M, N), "f32"),  # pyright: ignore[reportInvalidTypeForm]
                  m: M, n: N):  # pyright: ignore[reportInvalidTypeForm]
    """A MIX kernel whose nested loop runs on the cube: for the 16-row block rb, the
    column blocks of y = 2 (A B) up to its last row (at most n): ceil(min(16 rb + rows, n)
    / 16) matmuls, 0 when n = 0."""
    la = T.alloc((16, 16), "bf16", "cbuf")
    lb = T.alloc((16, W), "bf16", "cbuf")
    acc = T.alloc((16, W), "f32", "cc")
    s = T.alloc((16, W), "f32", "ub")
    for rb in T.pipelined((T.block_idx(), (m + 15) // 16, 2), num_stages=1):  # pyright: ignore[reportArgumentType]
        r0 = rb * 16
        rows = T.min(m - r0, 16)
        T.copy(a[r0:r0 + rows, :], la[0:rows, :])
        valid = T.min(r0 + rows, n)
        for j in T.pipelined((0, (valid + W - 1) // W, 1), num_stages=2):  # pyright: ignore[reportArgumentType]
            c0 = j * W
            cols = T.min(valid - c0, W)
            T.copy(b[:, c0:c0 + cols], lb[:, 0:cols])
            T.matmul(la[0:rows, :], lb[:, 0:cols], acc[0:rows, 0:cols], init=True)
            T.copy(acc[0:rows, 0:cols], s[0:rows, 0:cols])
            T.mul(s[0:rows, 0:cols], 2.0, s[0:rows, 0:cols])
            T.copy(s[0:rows, 0:cols], y[r0:r0 + rows, c0:c0 + cols])


KERNELS = {
    "triangle": _row_kernel(triangle),
    "first_empty": _row_kernel(first_empty),
    "last_empty": _row_kernel(last_empty),
    "two_loops": two_loops,
    "cube_triangle": cube_triangle,
}
# (m, n): no columns; one row; rows around one tile; counts that change from row to row
SIZES = ((3, 0), (1, 1), (2, W - 1), (5, W + 1), (W + 3, 2 * W + 3), (2 * W + 1, W))

_compiled: dict[str, tuple] = {}


def _compile(name: str):
    if name not in _compiled:
        tile_module = KERNELS[name].build()
        module = tile_module.clone()
        AscendCompilePass().apply(Context(), module)  # verify-sync: every trip count
        _compiled[name] = (tile_module, module)
    return _compiled[name]


def _inputs(tile_module, m: int, n: int, seed: int):
    f = kernel_function(tile_module)
    shapes = {arg: f"{m}x{n}" for arg in ("x", "y", "z")}
    if "a" in {h.name_hint for h in f.args}:
        shapes = {"a": f"{m}x16", "b": f"16x{n}", "y": f"{m}x{n}"}
    binds = {"m": str(m), "n": str(n), **{k: v for k, v in shapes.items() if k in {h.name_hint for h in f.args}}}
    return make_inputs(f, seed, bind_arguments(f, binds))


def _nested_for(module) -> list[scf.ForOp]:
    return [op for op in module.walk() if isinstance(op, scf.ForOp) and isinstance(op.parent_op(), scf.ForOp)]


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_zero_trip_shapes_compile_with_verified_sync(name):
    _, module = _compile(name)
    assert _nested_for(module)


@pytest.mark.parametrize("name", sorted(KERNELS))
@pytest.mark.parametrize(("m", "n"), SIZES)
def test_zero_trip_shapes_on_the_perturbed_simulator(name, m, n):
    tile_module, module = _compile(name)
    inputs = _inputs(tile_module, m, n, seed=m * 31 + n)
    expected = run_reference(tile_module, inputs)
    result = simulate(module, inputs, perturb=m + n + 1)
    assert not result.races and not result.deadlock and not result.unbalanced_flags
    assert not result.double_sets
    for arg, want in expected.items():
        np.testing.assert_allclose(result.outputs[arg], want, rtol=1e-5, atol=1e-6)


def test_the_triangle_computes_the_triangle():
    """The reference the simulator is held to is the kernel's meaning: row r's first
    min(r + 1, n) columns doubled, the rest untouched."""
    tile_module, _ = _compile("triangle")
    m, n = W + 3, 2 * W + 3
    inputs = _inputs(tile_module, m, n, seed=4)
    out = run_reference(tile_module, inputs)["arg1"]
    for r in range(m):
        k = min(r + 1, n)
        np.testing.assert_array_equal(out[r, :k], 2 * inputs["arg0"][r, :k])
        np.testing.assert_array_equal(out[r, k:], inputs["arg1"][r, k:])


def _pairs_around(loop: scf.ForOp) -> list[tuple[hivm.SetFlagOp, hivm.WaitFlagOp]]:
    """The set_flag before `loop` and wait_flag after it (in its parent block) of one
    pipe pair and event id: credits around the loop, and the loop's primes and drains."""
    block = loop.parent_block()
    assert block is not None
    ops = list(block.ops)
    at = ops.index(loop)
    pairs = []
    for s in ops[:at]:
        if not isinstance(s, hivm.SetFlagOp) or s.event_id is None:
            continue
        for w in ops[at + 1:]:
            same = isinstance(w, hivm.WaitFlagOp) and (w.set_pipe, w.wait_pipe, w.event_id) == (s.set_pipe, s.wait_pipe, s.event_id)
            if same:
                pairs.append((s, w))  # pyright: ignore[reportArgumentType]
                break
    return pairs


@pytest.mark.parametrize("name", ["triangle", "cube_triangle"])
def test_removing_a_pair_around_the_nested_loop_is_refused(name):
    """Mutants: each set/wait pair of one id around a nested loop (the credits among
    them), removed, leaves a double set, a deadlock or a race that verify-sync reports.
    (two_loops has none: `test_two_loops_of_one_op_at_a_time_run_with_barriers`.)"""
    _, module = _compile(name)
    loops = _nested_for(module)
    count = 0
    for index in range(len(loops)):
        for k in range(len(_pairs_around(loops[index]))):
            mutant = module.clone()
            s, w = _pairs_around(_nested_for(mutant)[index])[k]
            s.detach()
            s.erase()
            w.detach()
            w.erase()
            with pytest.raises(OpError, match="ascend-verify-sync"):
                VerifySyncPass().apply(Context(), mutant)
            count += 1
    assert count >= 4


def test_two_loops_of_one_op_at_a_time_run_with_barriers():
    """two_loops' inner loops (a count known at run time, one chain of 16-column tiles
    whose code runs one op at a time) replay faster in program order with their hand-offs
    as pipe_barrier[<PIPE_ALL>]s than with flags at every count weighed
    (small_trips._barrier_synced): no set/wait pair stands around them to remove, and
    the zero-trip runs above check that code."""
    _, module = _compile("two_loops")
    assert [ascend.is_barrier_sync(loop) for loop in _nested_for(module)] == [True, True]
    assert all(not _pairs_around(loop) for loop in _nested_for(module))
