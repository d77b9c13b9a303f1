"""`memref.collapse_shape` / `expand_shape` of strided (non-contiguous) views in the
simulator (issue 19 item 3): MLIR's layout rule (analysis/reshape_layout.py) on plain
data, and small synced kernels checked against numpy; a collapse MLIR defines no layout
for is a located refusal. bishengir-compile-a5 collapses a column view (16x1, row stride
8) into memref<16xf32, strided<[8]>> and reads it back through extract_strided_metadata
and reinterpret_cast: that sequence runs too."""

from __future__ import annotations

import numpy as np
import pytest

from ascend_mlir.analysis.reshape_layout import collapsed_layout, expanded_layout
from ascend_mlir.sim.simulator import simulate
from ascend_mlir.sim.memory import SimulationError

from test_sim_semantics import BARRIER, alloc, kernel, load, mr, parse, store


def test_collapse_layout_follows_mlir():
    # contiguous rows of a wider buffer: the group keeps the inner stride
    assert collapsed_layout((16, 256), (256, 1), [[0, 1]]) == ((4096,), (1,))
    # a column view: the unit dim is skipped, the row stride survives
    assert collapsed_layout((16, 1), (8, 1), [[0, 1]]) == ((16,), (8,))
    # 8 of the 16 elements of each row of a padded buffer: the row dims collapse, the
    # row's own dim keeps its stride; rows and columns together would not
    assert collapsed_layout((4, 2, 8), (32, 16, 1), [[0, 1], [2]]) == ((8, 8), (16, 1))
    assert isinstance(collapsed_layout((4, 2, 8), (32, 16, 1), [[0], [1, 2]]), str)
    assert collapsed_layout((1, 1), (5, 7), [[0, 1]]) == ((1,), (7,))
    # 16 rows of 8 inside 16-element rows: not one strided dimension
    why = collapsed_layout((16, 8), (16, 1), [[0, 1]])
    assert isinstance(why, str) and "not contiguous" in why and "dim 0 has stride 16, not 1 x 8" in why


def test_expand_layout_scales_the_source_stride():
    assert expanded_layout((16,), (8,), (4, 4), [[0, 1]]) == (32, 8)
    assert expanded_layout((8, 6), (12, 1), (2, 4, 6), [[0, 1], [2]]) == (48, 12, 1)
    assert isinstance(expanded_layout((16,), (1,), (3, 5), [[0, 1]]), str)


UB = "#hivm.address_space<ub>"


def _column_kernel(collapse_to: str, column: str, extra: list[str]) -> str:
    """x (16x8) to UB; a view of one column; collapse it; ops on the collapsed view."""
    args = [("x", "16x8", "f32"), ("y", "16x8", "f32")]
    body = [alloc("u0", "16x8", "f32"), load("x", "u0", "16x8", "f32"), BARRIER,
            f"    %col = memref.subview %u0[0, 3] [16, 1] [1, 1] : {mr('16x8', 'f32', 'ub')} to {column}",
            f"    %flat = memref.collapse_shape %col [[0, 1]] : {column} into {collapse_to}",
            *extra, BARRIER, store("u0", "y", "16x8", "f32")]
    return kernel(args, "\n".join(body))


COLUMN = f"memref<16x1xf32, strided<[8, 1], offset: 3>, {UB}>"
FLAT = f"memref<16xf32, strided<[8], offset: 3>, {UB}>"


def test_a_collapsed_column_is_the_column():
    double = f"    hivm.hir.vmul ins(%flat, %two : {FLAT}, f32) outs(%flat : {FLAT})"
    text = _column_kernel(FLAT, COLUMN, ["    %two = arith.constant 2.0 : f32", double])
    x = np.arange(128, dtype=np.float32).reshape(16, 8)
    r = simulate(parse(text), {"arg0": x, "arg1": np.zeros_like(x)})
    assert r.races == [] and r.ok, r.to_json()
    want = x.copy()
    want[:, 3] *= 2
    np.testing.assert_array_equal(r.outputs["arg1"], want)


def test_strided_metadata_and_reinterpret_cast_of_a_collapsed_view():
    """bishengir-compile-a5's sequence: the base of the collapsed column, reinterpreted as
    16x1 with row stride 8 at offset 3, is the same column."""
    view = f"memref<16x1xf32, strided<[8, 1], offset: 3>, {UB}>"
    extra = [
        "    %two = arith.constant 2.0 : f32",
        f"    %base, %off, %size, %stride = memref.extract_strided_metadata %flat : {FLAT} -> "
        f"memref<f32, {UB}>, index, index, index",
        f"    %again = memref.reinterpret_cast %base to offset: [%off], sizes: [16, 1], strides: [%stride, 1] : "
        f"memref<f32, {UB}> to {view}",
        f"    hivm.hir.vadd ins(%again, %two : {view}, f32) outs(%again : {view})",
    ]
    text = _column_kernel(FLAT, COLUMN, extra)
    x = np.arange(128, dtype=np.float32).reshape(16, 8)
    r = simulate(parse(text), {"arg0": x, "arg1": np.zeros_like(x)})
    assert r.races == [] and r.ok, r.to_json()
    want = x.copy()
    want[:, 3] += 2
    np.testing.assert_array_equal(r.outputs["arg1"], want)


def test_a_collapse_without_a_layout_is_refused_at_its_line():
    """Two columns of 8-element rows are not one strided dimension: MLIR's verifier rejects
    the op; xDSL 0.75's does not, so the simulator refuses it, located."""
    block = f"memref<16x2xf32, strided<[8, 1], offset: 3>, {UB}>"
    flat = f"memref<32xf32, strided<[1], offset: 3>, {UB}>"
    text = _column_kernel(flat, block, []).replace("[16, 1] [1, 1]", "[16, 2] [1, 1]")
    x = np.zeros((16, 8), np.float32)
    with pytest.raises(SimulationError, match=r"collapse_shape of dims \[0, 1\] that are not contiguous"):
        simulate(parse(text), {"arg0": x, "arg1": np.zeros_like(x)})


def _runtime_rows_kernel() -> str:
    """A view whose row count is a kernel argument, made by reinterpret_cast (as
    bishengir-compile-a5 makes them): no static bound on its size."""
    ub16 = mr("16x8", "f32", "ub")
    view = f"memref<?x8xf32, strided<[8, 1]>, {UB}>"
    body = "\n".join([
        alloc("u", "16x8", "f32"), load("x", "u", "16x8", "f32"), BARRIER,
        "    %two = arith.constant 2.0 : f32",
        f"    %r = memref.reinterpret_cast %u to offset: [0], sizes: [%n, 8], strides: [8, 1] : {ub16} to {view}",
        f"    hivm.hir.vmul ins(%r, %two : {view}, f32) outs(%r : {view})",
        BARRIER, store("u", "y", "16x8", "f32"),
    ])
    gm = mr("16x8", "f32", "gm")
    return (f"module {{\n  func.func @k(%x: {gm}, %y: {gm}, %n: index) attributes {{hacc.entry}} {{\n{body}\n"
            "    return\n  }\n}\n")


def test_an_op_on_a_runtime_view_without_bound_is_timed_at_its_runtime_size():
    """Issue 19 item 3: such an op used to be costed at a per-pipe default (and named);
    its latency now comes from the shape it runs with, so it is not unknown and a
    taller view takes longer."""
    x = np.arange(128, dtype=np.float32).reshape(16, 8)
    busy = {}
    for n in (2, 16):
        inputs: dict = {"arg0": x, "arg1": np.zeros_like(x), "arg2": n}  # arg2: the scalar row count
        r = simulate(parse(_runtime_rows_kernel()), inputs)
        assert r.races == [] and r.ok and r.unknown_latency_ops == [], r.to_json()
        want = x.copy()
        want[:n] *= 2
        np.testing.assert_array_equal(r.outputs["arg1"], want)
        busy[n] = r.pipe_busy["V"]
    assert busy[2] < busy[16], busy
