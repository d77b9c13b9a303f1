"""Expressions in the Python DSL (issue 22 item 1): operators and math functions on
tiles build the same tile ops as the destination-passing form, into temporaries the
compiler allocates, coalesces and shares; the three expression examples are short and
run in the same cycles as their spelled-out twins."""

import importlib.util
import inspect
import io
from pathlib import Path

import numpy as np
import pytest
from xdsl.printer import Printer

import ascend_mlir.frontend as T
from ascend_mlir.dialects import tile

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _example(name: str):
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _anonymous_ir(kernel: T.Kernel) -> str:
    """The kernel's IR without SSA names and locations (what the ops are, not what the
    Python variables were called)."""
    module = kernel.build()
    for op in module.walk():
        for value in op.results:
            value.name_hint = None
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    arg.name_hint = None
    stream = io.StringIO()
    Printer(stream=stream).print_op(module)
    return stream.getvalue()


def _body_lines(kernel: T.Kernel) -> int:
    """Statements of the kernel body: no signature, blank or comment lines."""
    source = inspect.getsource(kernel.fn).splitlines()
    body_start = next(i for i, line in enumerate(source) if line.rstrip().endswith("):")) + 1
    return sum(1 for line in source[body_start:] if line.strip() and not line.strip().startswith("#"))


def _ops(kernel: T.Kernel) -> list[str]:
    return [op.name for op in kernel.build().walk() if op.name.startswith("tile.")]


# ----------------------------------------------------------------------------- spelled-out twins


def _log_softmax_spelled(rows=64, cols=128, blocks=2, tile_rows=16) -> T.Kernel:
    per_block = rows // blocks

    @T.kernel(grid=blocks)
    def log_softmax(x: T.Tensor((rows, cols), "f32"), y: T.Tensor((rows, cols), "f32")):
        base = T.block_idx() * per_block
        ux = T.alloc((tile_rows, cols), "f32", "ub")
        stat = T.alloc((tile_rows, 1), "f32", "ub")
        wide = T.alloc((tile_rows, cols), "f32", "ub")
        for i in T.pipelined(range(per_block // tile_rows), num_stages=2):
            r = base + i * tile_rows
            T.copy(x[r:r + tile_rows, :], ux)
            T.reduce_max(ux, stat, dim=1)
            T.broadcast(stat, wide, dim=1)
            T.sub(ux, wide, ux)
            T.exp(ux, wide)
            T.reduce_sum(wide, stat, dim=1)
            T.ln(stat, stat)
            T.broadcast(stat, wide, dim=1)
            T.sub(ux, wide, ux)
            T.copy(ux, y[r:r + tile_rows, :])

    return log_softmax


def _gelu_spelled(rows=64, cols=128, blocks=2, tile_rows=16) -> T.Kernel:
    per_block = rows // blocks
    c = _example("gelu_tanh").SQRT_2_OVER_PI

    @T.kernel(grid=blocks)
    def gelu_tanh(x: T.Tensor((rows, cols), "bf16"), y: T.Tensor((rows, cols), "bf16")):
        base = T.block_idx() * per_block
        raw = T.alloc((tile_rows, cols), "bf16", "ub")
        v = T.alloc((tile_rows, cols), "f32", "ub")
        u = T.alloc((tile_rows, cols), "f32", "ub")
        for i in T.pipelined(range(per_block // tile_rows), num_stages=2):
            r = base + i * tile_rows
            T.copy(x[r:r + tile_rows, :], raw)
            T.cast(raw, v)
            T.mul(v, 0.044715, u)
            T.mul(u, v, u)
            T.mul(u, v, u)
            T.add(v, u, u)
            T.mul(u, c, u)
            T.mul(u, 2, u)
            T.mul(u, -1, u)
            T.exp(u, u)
            T.add(u, 1, u)
            T.rec(u, u)
            T.mul(v, u, v)
            T.cast(v, raw)
            T.copy(raw, y[r:r + tile_rows, :])

    return gelu_tanh


def _linear_bias_spelled(m=128, k=128, n=128, tm=64, tn=64, tk=64) -> T.Kernel:
    @T.kernel(grid=(m // tm) * (n // tn))
    def linear_bias(x: T.Tensor((m, k), "bf16"), w: T.Tensor((k, n), "bf16"),
                    bias: T.Tensor((1, n), "f32"), y: T.Tensor((m, n), "f32")):
        block = T.block_idx()
        m0, n0 = block // (n // tn) * tm, block % (n // tn) * tn
        lx = T.alloc((tm, tk), "bf16", "cbuf")
        lw = T.alloc((tk, tn), "bf16", "cbuf")
        acc = T.alloc((tm, tn), "f32", "cc")
        for j in T.pipelined(range(k // tk), num_stages=2):
            T.copy(x[m0:m0 + tm, j * tk:(j + 1) * tk], lx)
            T.copy(w[j * tk:(j + 1) * tk, n0:n0 + tn], lw)
            T.matmul(lx, lw, acc, init=(j == 0))
        uc = T.alloc((tm, tn), "f32", "ub")
        T.copy(acc, uc)
        b_tile = bias[:, n0:n0 + tn]
        row = T.alloc((1, tn), "f32", "ub")
        T.copy(b_tile, row)
        wide = T.alloc((tm, tn), "f32", "ub")
        T.broadcast(row, wide, dim=0)
        T.add(uc, wide, uc)
        T.copy(uc, y[m0:m0 + tm, n0:n0 + tn])

    return linear_bias


CASES = [
    ("log_softmax", _log_softmax_spelled, dict(rows=64, cols=128, blocks=2)),
    ("gelu_tanh", _gelu_spelled, dict(rows=64, cols=128, blocks=2)),
    ("linear_bias", _linear_bias_spelled, dict(m=128, k=128, n=128, tm=64, tn=64, tk=64)),
]


@pytest.mark.parametrize("name,spelled,sizes", CASES, ids=[c[0] for c in CASES])
def test_expression_example_is_the_spelled_out_kernel(name, spelled, sizes):
    expression = _example(name).make(**sizes)
    assert _anonymous_ir(expression) == _anonymous_ir(spelled(**sizes))


@pytest.mark.parametrize("name", [c[0] for c in CASES])
def test_expression_examples_fit_in_twelve_lines(name):
    assert _body_lines(_example(name).make()) <= 12


@pytest.mark.parametrize("name,spelled,sizes", CASES, ids=[c[0] for c in CASES])
def test_expression_example_runs_race_free_in_the_same_cycles(name, spelled, sizes):
    expression = T.simulate(_example(name).make(**sizes))
    by_hand = T.simulate(spelled(**sizes))
    assert expression.ok, (expression.races, expression.mismatches)
    assert by_hand.ok
    assert expression.cycles == by_hand.cycles


# ----------------------------------------------------------------------------- building blocks


def _vector_kernel(body, shape=(16, 64), dtype="f32"):
    @T.kernel(grid=1)
    def k(x: T.Tensor(shape, dtype), y: T.Tensor(shape, dtype)):
        body(x, y)

    return k


def test_operators_build_tile_ops_with_scalars_on_either_side():
    def body(x, y):
        u = T.load(x)
        y[...] = (2.0 - u) * 3 + 1 / u - (-u) / 2

    ops = _ops(_vector_kernel(body))
    # 2 - u = u * -1 + 2; 1 / u = rec(u); -u = u * -1
    assert ops == ["tile.copy", "tile.mul", "tile.add", "tile.mul", "tile.rec", "tile.add",
                   "tile.mul", "tile.div", "tile.sub", "tile.copy"]


def test_powers_are_the_spelled_out_products_and_the_vector_units_roots():
    def spelled(x, y):
        u = T.load(x)
        y[...] = u * u * u + T.sqrt(u) + 1 / u + T.rsqrt(u)

    def powers(x, y):
        u = T.load(x)
        y[...] = u ** 3 + u ** 0.5 + u ** -1 + u ** -0.5

    assert _vector_kernel(powers).to_mlir() == _vector_kernel(spelled).to_mlir()
    x = np.linspace(0.5, 3, 16 * 64, dtype=np.float32).reshape(16, 64)
    result = T.simulate(_vector_kernel(powers), {"x": x, "y": np.zeros_like(x)})
    assert result.ok, (result.races, result.mismatches)
    np.testing.assert_allclose(result.outputs["y"], x ** 3 + np.sqrt(x) + 1 / x + 1 / np.sqrt(x), rtol=1e-5)


def test_expression_results_match_numpy():
    def body(x, y):
        u = T.load(x)
        y[...] = T.maximum(T.sigmoid(u) * 2 - T.tanh(u), 0.25) + abs(u) + T.relu(-u)

    x = np.linspace(-3, 3, 16 * 64, dtype=np.float32).reshape(16, 64)
    result = T.simulate(_vector_kernel(body), {"x": x, "y": np.zeros_like(x)})
    assert result.ok, (result.races, result.mismatches)
    expected = np.maximum(2 / (1 + np.exp(-x)) - np.tanh(x), 0.25) + np.abs(x) + np.maximum(-x, 0)
    np.testing.assert_allclose(result.outputs["y"], expected, rtol=1e-5, atol=1e-5)


def test_rows_columns_and_scalars_broadcast():
    @T.kernel(grid=1)
    def k(x: T.Tensor((16, 64), "f32"), r: T.Tensor((1, 64), "f32"), c: T.Tensor((16, 1), "f32"),
          y: T.Tensor((16, 64), "f32")):
        y[...] = T.load(x) * T.load(r) + T.load(c)

    build = k.build()
    dims = [list(op.broadcast_dims) for op in build.walk() if isinstance(op, tile.BroadcastOp)]
    assert dims == [[0], [1]]
    x, r, c = (np.random.default_rng(0).uniform(-1, 1, s).astype(np.float32) for s in ((16, 64), (1, 64), (16, 1)))
    result = T.simulate(k, {"x": x, "r": r, "c": c, "y": np.zeros_like(x)})
    assert result.ok
    np.testing.assert_allclose(result.outputs["y"], x * r + c, rtol=1e-6)


def test_an_assigned_ub_tile_is_written_in_place_and_temporaries_are_shared():
    @T.kernel(grid=1)
    def k(x: T.Tensor((16, 64), "f32"), y: T.Tensor((16, 64), "f32")):
        u = T.alloc((16, 64), "f32", "ub")
        T.copy(x, u)
        for _ in T.pipelined(range(2)):
            u[...] = T.exp(u - T.reduce_max(u, dim=1))
            u[...] = u * 0.5
        T.copy(u, y)

    module = k.build()
    allocs = [op for op in module.walk() if op.name == "memref.alloc"]
    # u, one (16, 1) statistic and one (16, 64) broadcast buffer; no copies into u
    assert len(allocs) == 3
    copies = [op for op in module.walk() if isinstance(op, tile.CopyOp)]
    assert len(copies) == 2
    exp = next(op for op in module.walk() if isinstance(op, tile.ExpOp))
    assert exp.dest is allocs[0].results[0]


def test_a_temporary_read_after_a_loop_is_not_shared_inside_it():
    @T.kernel(grid=1)
    def k(x: T.Tensor((16, 64), "f32"), y: T.Tensor((16, 64), "f32")):
        u = T.load(x) * 2.0
        for _ in T.pipelined(range(2)):
            y[...] = u + 1.0  # u is read in every iteration: nothing inside may reuse it
        y[...] = u

    module = k.build()
    add = next(op for op in module.walk() if isinstance(op, tile.AddOp))
    assert add.dest is not add.lhs


def test_unused_expressions_leave_no_ops():
    def body(x, y):
        u = T.load(x)
        T.exp(u)  # never used
        y[...] = u

    assert _ops(_vector_kernel(body)) == ["tile.copy", "tile.copy"]


def test_rank_reducing_index_drops_the_dimension():
    @T.kernel(grid=2)
    def k(x: T.Tensor((2, 16, 64), "f32"), y: T.Tensor((2, 16, 64), "f32")):
        b = T.block_idx()
        y[b, :, :] = T.load(x[b]) + 1.0

    x = np.random.default_rng(1).uniform(-1, 1, (2, 16, 64)).astype(np.float32)
    result = T.simulate(k, {"x": x, "y": np.zeros_like(x)})
    assert result.ok, (result.races, result.mismatches)
    np.testing.assert_allclose(result.outputs["y"], x + 1, rtol=1e-6)


@pytest.mark.parametrize("body,message", [
    (lambda x, y: x + 1.0, "vector ops read ub tiles; load it first"),
    (lambda x, y: T.load(x) < 0, "tiles cannot be compared"),
    (lambda x, y: T.load(x) + T.load(x[0:8, 0:8]), "do not broadcast"),
    (lambda x, y: T.load(x).astype("f16") + T.load(x), "element types differ"),
    (lambda x, y: T.reduce_sum(T.load(x)), "say which dimension to reduce"),
    (lambda x, y: y.__setitem__(Ellipsis, T.load(x).astype("f16")), "convert with .astype"),
    # a store of the wrong size was called a broadcast into GM ("load it first")
    (lambda x, y: y.__setitem__((slice(0, 8), slice(None)), T.load(x)),
     "assigning a 16x64 tile to a 8x64 destination: the shapes differ"),
    (lambda x, y: T.load(x) ** 2.5, r"x \*\* 2.5: powers are whole numbers"),
    (lambda x, y: T.load(x) ** 9, r"x \*\* 9: powers are whole numbers 1-8"),
    (lambda x, y: 2 ** T.load(x), "a tile as exponent is refused"),
])
def test_expression_misuse_is_a_located_error(body, message):
    with pytest.raises(T.DSLError, match=message) as info:
        _vector_kernel(body).build()
    assert "test_frontend_expressions.py" in str(info.value)
