"""The tile-level reference interpreter against direct numpy, op by op.

Each test writes a small kernel as IR text (GM -> UB copies, the op under test, UB -> GM),
runs `run_reference` and compares with the numpy formula.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import BFloat16Type, ModuleOp
from xdsl.parser import Parser

from ascend_mlir.dialects import UPSTREAM_DIALECTS, register_dialects
from ascend_mlir.sim.reference import (
    ReferenceError,
    kernel_function,
    make_inputs,
    run_reference,
)
from ascend_mlir.sim.reference_numerics import is_representable, round_to_bf16, to_storage


def parse(text: str) -> ModuleOp:
    ctx = register_dialects(Context(), (*UPSTREAM_DIALECTS, "affine"))
    module = Parser(ctx, text).parse_module()
    module.verify()
    return module


def mem(shape: str, elem: str, scope: str) -> str:
    return f"memref<{shape}x{elem}, #hivm.address_space<{scope}>>"


def kernel(args: list[tuple[str, str]], body: str, grid: int = 1) -> str:
    """A kernel whose GM arguments are (shape, element type) pairs named %a0, %a1, ..."""
    params = ", ".join(f"%a{i}: {mem(s, e, 'gm')}" for i, (s, e) in enumerate(args))
    return (
        f"func.func @k({params}) attributes {{tile.kernel, tile.grid = {grid} : i64}} {{\n"
        f"{body}\n  return\n}}\n"
    )


def load(name: str, gm: str, shape: str, elem: str) -> str:
    return (
        f"  %{name} = memref.alloc() : {mem(shape, elem, 'ub')}\n"
        f"  tile.copy ins(%{gm} : {mem(shape, elem, 'gm')}) outs(%{name} : {mem(shape, elem, 'ub')})\n"
    )


def store(name: str, gm: str, shape: str, elem: str) -> str:
    return f"  tile.copy ins(%{name} : {mem(shape, elem, 'ub')}) outs(%{gm} : {mem(shape, elem, 'gm')})\n"


def run(text: str, seed: int = 0):
    module = parse(text)
    inputs = make_inputs(kernel_function(module), seed)
    return inputs, run_reference(module, inputs)


# --------------------------------------------------------------------------------------
# numerics
# --------------------------------------------------------------------------------------


def test_bf16_rounding_is_nearest_even():
    one = np.float32(1.0)
    ulp = np.float32(2.0**-7)  # bf16 spacing at 1.0
    values = np.array(
        [one + ulp / 2, one + 3 * ulp / 2, one + ulp / 4, one + 3 * ulp / 4, -(one + ulp / 2)],
        dtype=np.float32,
    )
    expected = np.array([one, one + 2 * ulp, one, one + ulp, -one], dtype=np.float32)
    np.testing.assert_array_equal(round_to_bf16(values), expected)
    assert np.isnan(round_to_bf16(np.array([np.nan], dtype=np.float32)))[0]
    # the largest finite float32 rounds past bf16's range to infinity
    assert np.isinf(round_to_bf16(np.array([np.finfo(np.float32).max])))[0]


def test_to_storage_float_to_int_rounds_and_saturates():
    from xdsl.dialects.builtin import i8

    np.testing.assert_array_equal(
        to_storage(np.array([2.5, 3.5, -2.5, 300.0, -300.0]), i8),
        np.array([2, 4, -2, 127, -128], dtype=np.int8),
    )


# --------------------------------------------------------------------------------------
# memref glue and grid
# --------------------------------------------------------------------------------------


def test_vecadd_grid_with_dynamic_subviews():
    sub = "memref<16xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>"
    body = (
        "  %b = tile.block_idx : index\n"
        "  %c16 = arith.constant 16 : index\n"
        "  %off = arith.muli %b, %c16 : index\n"
        + "".join(
            f"  %s{i} = memref.subview %a{i}[%off] [16] [1] : {mem('64', 'f32', 'gm')} to {sub}\n"
            for i in range(3)
        )
        + "".join(
            f"  %u{i} = memref.alloc() : {mem('16', 'f32', 'ub')}\n"
            f"  tile.copy ins(%s{i} : {sub}) outs(%u{i} : {mem('16', 'f32', 'ub')})\n"
            for i in range(2)
        )
        + f"  tile.add ins(%u0, %u1 : {mem('16', 'f32', 'ub')}, {mem('16', 'f32', 'ub')}) outs(%u0 : {mem('16', 'f32', 'ub')})\n"
        f"  tile.copy ins(%u0 : {mem('16', 'f32', 'ub')}) outs(%s2 : {sub})\n"
    )
    inputs, out = run(kernel([("64", "f32")] * 3, body, grid=4))
    np.testing.assert_array_equal(out["arg2"], inputs["arg0"] + inputs["arg1"])
    np.testing.assert_array_equal(out["arg0"], inputs["arg0"])


def test_grid_of_one_block_only_writes_block_zero():
    sub = "memref<16xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>"
    body = (
        "  %b = tile.block_idx : index\n"
        "  %c16 = arith.constant 16 : index\n"
        "  %off = arith.muli %b, %c16 : index\n"
        f"  %s0 = memref.subview %a0[%off] [16] [1] : {mem('64', 'f32', 'gm')} to {sub}\n"
        f"  %s1 = memref.subview %a1[%off] [16] [1] : {mem('64', 'f32', 'gm')} to {sub}\n"
        f"  %u = memref.alloc() : {mem('16', 'f32', 'ub')}\n"
        f"  tile.copy ins(%s0 : {sub}) outs(%u : {mem('16', 'f32', 'ub')})\n"
        f"  tile.copy ins(%u : {mem('16', 'f32', 'ub')}) outs(%s1 : {sub})\n"
    )
    inputs, out = run(kernel([("64", "f32")] * 2, body, grid=1))
    np.testing.assert_array_equal(out["arg1"][:16], inputs["arg0"][:16])
    np.testing.assert_array_equal(out["arg1"][16:], inputs["arg1"][16:])


def test_strided_and_rank_reducing_subviews_in_a_loop():
    # copy column j of a 8x4 matrix (stride 4 in the flat view) into row j of the output
    col = "memref<8xf32, strided<[4], offset: ?>, #hivm.address_space<gm>>"
    row = "memref<8xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>"
    body = (
        "  %c0 = arith.constant 0 : index\n"
        "  %c1 = arith.constant 1 : index\n"
        "  %c4 = arith.constant 4 : index\n"
        f"  %u = memref.alloc() : {mem('8', 'f32', 'ub')}\n"
        "  scf.for %j = %c0 to %c4 step %c1 {\n"
        f"    %src = memref.subview %a0[0, %j] [8, 1] [1, 1] : {mem('8x4', 'f32', 'gm')} to {col}\n"
        f"    %dst = memref.subview %a1[%j, 0] [1, 8] [1, 1] : {mem('4x8', 'f32', 'gm')} to {row}\n"
        f"    tile.copy ins(%src : {col}) outs(%u : {mem('8', 'f32', 'ub')})\n"
        f"    tile.copy ins(%u : {mem('8', 'f32', 'ub')}) outs(%dst : {row})\n"
        "  } {tile.num_stages = 2 : i64}\n"
    )
    inputs, out = run(kernel([("8x4", "f32"), ("4x8", "f32")], body))
    np.testing.assert_array_equal(out["arg1"], inputs["arg0"].T)


def test_static_strided_subview():
    view = "memref<4xf32, strided<[2], offset: 1>, #hivm.address_space<gm>>"
    body = (
        f"  %s = memref.subview %a0[1] [4] [2] : {mem('8', 'f32', 'gm')} to {view}\n"
        f"  %u = memref.alloc() : {mem('4', 'f32', 'ub')}\n"
        f"  tile.copy ins(%s : {view}) outs(%u : {mem('4', 'f32', 'ub')})\n"
        + store("u", "a1", "4", "f32")
    )
    inputs, out = run(kernel([("8", "f32"), ("4", "f32")], body))
    np.testing.assert_array_equal(out["arg1"], inputs["arg0"][1::2])


# --------------------------------------------------------------------------------------
# elementwise
# --------------------------------------------------------------------------------------

BINARY = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": np.divide,
    "max": np.maximum,
    "min": np.minimum,
}


@pytest.mark.parametrize("elem", ["f32", "f16"])
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_memref_operands(name, elem):
    t = mem("4x8", elem, "ub")
    body = (
        load("x", "a0", "4x8", elem)
        + load("y", "a1", "4x8", elem)
        + f"  tile.{name} ins(%x, %y : {t}, {t}) outs(%x : {t})\n"
        + store("x", "a2", "4x8", elem)
    )
    inputs, out = run(kernel([("4x8", elem)] * 3, body))
    x, y = inputs["arg0"].astype(np.float32), inputs["arg1"].astype(np.float32)
    expected = BINARY[name](x, y).astype(out["arg2"].dtype)
    np.testing.assert_array_equal(out["arg2"], expected)
    if name == "div":
        assert np.all(inputs["arg1"] >= 0.5), "denominators must be kept away from zero"


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_scalar_operand(name):
    t = mem("16", "f32", "ub")
    body = (
        "  %s = arith.constant 0.75 : f32\n"
        + load("x", "a0", "16", "f32")
        + f"  %y = memref.alloc() : {t}\n"
        + f"  tile.{name} ins(%x, %s : {t}, f32) outs(%y : {t})\n"
        + store("y", "a1", "16", "f32")
    )
    inputs, out = run(kernel([("16", "f32")] * 2, body))
    np.testing.assert_array_equal(out["arg1"], BINARY[name](inputs["arg0"], np.float32(0.75)))


def test_bf16_add_rounds_result():
    t = mem("32", "bf16", "ub")
    body = (
        load("x", "a0", "32", "bf16")
        + load("y", "a1", "32", "bf16")
        + f"  tile.add ins(%x, %y : {t}, {t}) outs(%x : {t})\n"
        + store("x", "a2", "32", "bf16")
    )
    inputs, out = run(kernel([("32", "bf16")] * 3, body))
    assert is_representable(inputs["arg0"], BFloat16Type())  # ml_dtypes.bfloat16 storage
    # computed in float32, rounded once
    total = inputs["arg0"].astype(np.float32) + inputs["arg1"].astype(np.float32)
    np.testing.assert_array_equal(out["arg2"], round_to_bf16(total))
    assert is_representable(out["arg2"], BFloat16Type())


UNARY = {
    # in double, rounded once to float32 (reference_numerics.in_double): what the CCE
    # emulation computes too; numpy's float32 exp/log loops are approximations
    "exp": lambda x: np.exp(x.astype(np.float64)).astype(np.float32),
    "ln": lambda x: np.log(x.astype(np.float64)).astype(np.float32),
    "relu": lambda x: np.maximum(x, 0),
    "abs": np.abs,
    "sqrt": np.sqrt,
    "rsqrt": lambda x: 1 / np.sqrt(x),
    "rec": lambda x: 1 / x,
}


@pytest.mark.parametrize("elem", ["f32", "f16"])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary(name, elem):
    t = mem("64", elem, "ub")
    body = (
        load("x", "a0", "64", elem)
        + f"  %y = memref.alloc() : {t}\n"
        + f"  tile.{name} ins(%x : {t}) outs(%y : {t})\n"
        + store("y", "a1", "64", elem)
    )
    inputs, out = run(kernel([("64", elem)] * 2, body))
    expected = UNARY[name](inputs["arg0"].astype(np.float32)).astype(out["arg1"].dtype)
    np.testing.assert_array_equal(out["arg1"], expected)
    assert np.all(np.isfinite(out["arg1"]))
    if name in ("ln", "sqrt", "rsqrt", "rec"):
        assert inputs["arg0"].min() >= 0.5
    else:
        assert inputs["arg0"].min() < 0, "inputs of sign-agnostic ops cover negatives"


@pytest.mark.parametrize(
    "src,dst",
    [("f32", "f16"), ("f32", "bf16"), ("f16", "f32"), ("bf16", "f32"), ("f32", "i32"), ("i32", "f32")],
)
def test_cast(src, dst):
    ts, td = mem("32", src, "ub"), mem("32", dst, "ub")
    body = (
        load("x", "a0", "32", src)
        + f"  %y = memref.alloc() : {td}\n"
        + f"  tile.cast ins(%x : {ts}) outs(%y : {td})\n"
        + store("y", "a1", "32", dst)
    )
    inputs, out = run(kernel([("32", src), ("32", dst)], body))
    x = inputs["arg0"].astype(np.float64)
    expected = {
        "f16": lambda: x.astype(np.float16),
        "bf16": lambda: round_to_bf16(x.astype(np.float32)),
        "f32": lambda: x.astype(np.float32),
        "i32": lambda: np.rint(x).astype(np.int32),
    }[dst]()
    np.testing.assert_array_equal(out["arg1"], expected)
    assert out["arg1"].dtype == inputs["arg1"].dtype  # the storage dtype of the element type


def test_fill_f16_and_i32():
    tf, ti = mem("8", "f16", "ub"), mem("8", "i32", "ub")
    body = (
        "  %h = arith.constant 0.1 : f16\n"
        "  %n = arith.constant -7 : i32\n"
        f"  %u = memref.alloc() : {tf}\n"
        f"  %v = memref.alloc() : {ti}\n"
        f"  tile.fill ins(%h : f16) outs(%u : {tf})\n"
        f"  tile.fill ins(%n : i32) outs(%v : {ti})\n"
        + store("u", "a0", "8", "f16")
        + store("v", "a1", "8", "i32")
    )
    _, out = run(kernel([("8", "f16"), ("8", "i32")], body))
    np.testing.assert_array_equal(out["arg0"], np.full(8, 0.1, dtype=np.float16))
    np.testing.assert_array_equal(out["arg1"], np.full(8, -7, dtype=np.int32))


# --------------------------------------------------------------------------------------
# reduce / broadcast
# --------------------------------------------------------------------------------------


def reduce_kernel(kind: str, shape: str, out_shape: str, elem: str, dims: str) -> str:
    """A kernel that loads arg0 (`shape`), reduces it over `dims` ("1", "0, 1") into a
    `out_shape` tile and stores that to arg1."""
    ts, td = mem(shape, elem, "ub"), mem(out_shape, elem, "ub")
    body = (
        load("x", "a0", shape, elem)
        + f"  %r = memref.alloc() : {td}\n"
        + f"  tile.reduce <{kind}> ins(%x : {ts}) outs(%r : {td}) dims = [{dims}]\n"
        + store("r", "a1", out_shape, elem)
    )
    return kernel([(shape, elem), (out_shape, elem)], body)


@pytest.mark.parametrize("kind", ["sum", "max", "min"])
@pytest.mark.parametrize("dim", [0, 1])
def test_reduce(kind, dim):
    out_shape = "1x8" if dim == 0 else "4x1"
    inputs, out = run(reduce_kernel(kind, "4x8", out_shape, "f32", str(dim)))
    expected = {"sum": np.sum, "max": np.max, "min": np.min}[kind](
        inputs["arg0"], axis=dim, keepdims=True
    )
    np.testing.assert_allclose(out["arg1"], expected, rtol=1e-6)


def test_reduce_both_dims():
    inputs, out = run(reduce_kernel("max", "4x8", "1x1", "f32", "0, 1"))
    assert out["arg1"][0, 0] == inputs["arg0"].max()


def test_broadcast_then_subtract_row_max():
    """The first two steps of a softmax row: x - max(x, axis=1)."""
    t, tr = mem("4x8", "f32", "ub"), mem("4x1", "f32", "ub")
    body = (
        load("x", "a0", "4x8", "f32")
        + f"  %r = memref.alloc() : {tr}\n"
        + f"  %b = memref.alloc() : {t}\n"
        + f"  tile.reduce <max> ins(%x : {t}) outs(%r : {tr}) dims = [1]\n"
        + f"  tile.broadcast ins(%r : {tr}) outs(%b : {t}) dims = [1]\n"
        + f"  tile.sub ins(%x, %b : {t}, {t}) outs(%x : {t})\n"
        + store("x", "a1", "4x8", "f32")
    )
    inputs, out = run(kernel([("4x8", "f32")] * 2, body))
    x = inputs["arg0"]
    np.testing.assert_array_equal(out["arg1"], x - x.max(axis=1, keepdims=True))


# --------------------------------------------------------------------------------------
# matmul
# --------------------------------------------------------------------------------------


def _gemm_body(m, k, n, elem, transpose_b=False, init="%true", acc_twice=False):
    bshape = f"{n}x{k}" if transpose_b else f"{k}x{n}"
    ta, tb, tc = mem(f"{m}x{k}", elem, "cbuf"), mem(bshape, elem, "cbuf"), mem(f"{m}x{n}", "f32", "cc")
    attr = " {transpose_b}" if transpose_b else ""
    mm = f"  tile.matmul{attr} ins(%l1a, %l1b : {ta}, {tb}) outs(%c : {tc}) init({init} : i1)\n"
    return (
        "  %true = arith.constant true\n"
        "  %false = arith.constant false\n"
        f"  %l1a = memref.alloc() : {ta}\n"
        f"  %l1b = memref.alloc() : {tb}\n"
        f"  %c = memref.alloc() : {tc}\n"
        f"  tile.copy ins(%a0 : {mem(f'{m}x{k}', elem, 'gm')}) outs(%l1a : {ta})\n"
        f"  tile.copy ins(%a1 : {mem(bshape, elem, 'gm')}) outs(%l1b : {tb})\n"
        + mm
        + (mm.replace(f"init({init}", "init(%false") if acc_twice else "")
        + f"  tile.copy ins(%c : {tc}) outs(%a2 : {mem(f'{m}x{n}', 'f32', 'gm')})\n"
    )


@pytest.mark.parametrize("elem", ["bf16", "f16"])
def test_matmul_low_precision_inputs_accumulate_in_f32(elem):
    m, k, n = 16, 32, 8
    body = _gemm_body(m, k, n, elem)
    inputs, out = run(kernel([(f"{m}x{k}", elem), (f"{k}x{n}", elem), (f"{m}x{n}", "f32")], body))
    expected = (inputs["arg0"].astype(np.float64) @ inputs["arg1"].astype(np.float64)).astype(np.float32)
    np.testing.assert_allclose(out["arg2"], expected, rtol=1e-6, atol=1e-6)


def test_matmul_transpose_b():
    m, k, n = 8, 16, 4
    body = _gemm_body(m, k, n, "f16", transpose_b=True)
    inputs, out = run(kernel([(f"{m}x{k}", "f16"), (f"{n}x{k}", "f16"), (f"{m}x{n}", "f32")], body))
    expected = (inputs["arg0"].astype(np.float64) @ inputs["arg1"].astype(np.float64).T).astype(np.float32)
    np.testing.assert_allclose(out["arg2"], expected, rtol=1e-6, atol=1e-6)


def test_matmul_init_false_accumulates():
    m, k, n = 8, 16, 4
    body = _gemm_body(m, k, n, "f16", acc_twice=True)
    inputs, out = run(kernel([(f"{m}x{k}", "f16"), (f"{k}x{n}", "f16"), (f"{m}x{n}", "f32")], body))
    product = (inputs["arg0"].astype(np.float64) @ inputs["arg1"].astype(np.float64)).astype(np.float32)
    np.testing.assert_allclose(out["arg2"], 2 * product, rtol=1e-6, atol=1e-6)


def test_matmul_k_loop_with_computed_init():
    """C = A @ B over a K loop; init is `k == 0`, so stale accumulator data never leaks."""
    m, k, n, kt = 8, 32, 8, 8
    ta, tb, tc = mem(f"{m}x{kt}", "bf16", "cbuf"), mem(f"{kt}x{n}", "bf16", "cbuf"), mem(f"{m}x{n}", "f32", "cc")
    va = f"memref<{m}x{kt}xbf16, strided<[{k}, 1], offset: ?>, #hivm.address_space<gm>>"
    vb = f"memref<{kt}x{n}xbf16, strided<[{n}, 1], offset: ?>, #hivm.address_space<gm>>"
    body = (
        "  %c0 = arith.constant 0 : index\n"
        f"  %ck = arith.constant {k} : index\n"
        f"  %ckt = arith.constant {kt} : index\n"
        f"  %l1a = memref.alloc() : {ta}\n"
        f"  %l1b = memref.alloc() : {tb}\n"
        f"  %c = memref.alloc() : {tc}\n"
        "  scf.for %kk = %c0 to %ck step %ckt {\n"
        "    %first = arith.cmpi eq, %kk, %c0 : index\n"
        f"    %sa = memref.subview %a0[0, %kk] [{m}, {kt}] [1, 1] : {mem(f'{m}x{k}', 'bf16', 'gm')} to {va}\n"
        f"    %sb = memref.subview %a1[%kk, 0] [{kt}, {n}] [1, 1] : {mem(f'{k}x{n}', 'bf16', 'gm')} to {vb}\n"
        f"    tile.copy ins(%sa : {va}) outs(%l1a : {ta})\n"
        f"    tile.copy ins(%sb : {vb}) outs(%l1b : {tb})\n"
        f"    tile.matmul ins(%l1a, %l1b : {ta}, {tb}) outs(%c : {tc}) init(%first : i1)\n"
        "  } {tile.num_stages = 2 : i64}\n"
        f"  tile.copy ins(%c : {tc}) outs(%a2 : {mem(f'{m}x{n}', 'f32', 'gm')})\n"
    )
    text = kernel([(f"{m}x{k}", "bf16"), (f"{k}x{n}", "bf16"), (f"{m}x{n}", "f32")], body)
    inputs, out = run(text)
    expected = inputs["arg0"].astype(np.float64) @ inputs["arg1"].astype(np.float64)
    np.testing.assert_allclose(out["arg2"], expected, rtol=1e-5, atol=1e-5)
    # the output's initial (random) content must not matter
    module = parse(text)
    other = dict(inputs, arg2=np.full((m, n), 123.0, dtype=np.float32))
    np.testing.assert_array_equal(run_reference(module, other)["arg2"], out["arg2"])


def test_dual_copy_gives_each_vector_core_its_half():
    """gemm + relu as a MIX kernel: the accumulator's rows are split between the two
    vector cores; each stores its half (offset by the sub-block's rows)."""
    m, k, n = 16, 8, 8
    h = m // 2
    ta, tb, tc = mem(f"{m}x{k}", "f16", "cbuf"), mem(f"{k}x{n}", "f16", "cbuf"), mem(f"{m}x{n}", "f32", "cc")
    tu = mem(f"{h}x{n}", "f32", "ub")
    body = (
        "  %true = arith.constant true\n"
        f"  %l1a = memref.alloc() : {ta}\n"
        f"  %l1b = memref.alloc() : {tb}\n"
        f"  %c = memref.alloc() : {tc}\n"
        f"  %u = memref.alloc() : {tu}\n"
        f"  tile.copy ins(%a0 : {mem(f'{m}x{k}', 'f16', 'gm')}) outs(%l1a : {ta})\n"
        f"  tile.copy ins(%a1 : {mem(f'{k}x{n}', 'f16', 'gm')}) outs(%l1b : {tb})\n"
        f"  tile.matmul ins(%l1a, %l1b : {ta}, {tb}) outs(%c : {tc}) init(%true : i1)\n"
        f"  tile.copy ins(%c : {tc}) outs(%u : {tu})\n"
        f"  tile.relu ins(%u : {tu}) outs(%u : {tu})\n"
        f"  tile.copy ins(%u : {tu}) outs(%a2 : {mem(f'{h}x{n}', 'f32', 'gm')})\n"
    )
    inputs, out = run(kernel([(f"{m}x{k}", "f16"), (f"{k}x{n}", "f16"), (f"{h}x{n}", "f32")], body))
    # summed in float64 and rounded once to float32, as the reference documents (an f32 sum
    # of this seed's row 2 cancels to 1.5e-6 off in its last bits)
    product = (inputs["arg0"].astype(np.float64) @ inputs["arg1"].astype(np.float64)).astype(np.float32)
    # without a sub-block offset both vector cores store to the same place; the second
    # (sub-block 1, the lower half) is what remains
    np.testing.assert_allclose(out["arg2"], np.maximum(product[h:], 0), rtol=1e-6)


# --------------------------------------------------------------------------------------
# API contract
# --------------------------------------------------------------------------------------


def _copy_kernel() -> ModuleOp:
    return parse(kernel([("8", "f32")] * 2, load("u", "a0", "8", "f32") + store("u", "a1", "8", "f32")))


def test_module_and_inputs_are_not_mutated():
    module = _copy_kernel()
    before = str(module)
    inputs = make_inputs(kernel_function(module), 3)
    saved = {k: v.copy() for k, v in inputs.items()}
    out = run_reference(module, inputs)
    assert str(module) == before
    for name in inputs:
        np.testing.assert_array_equal(inputs[name], saved[name])
    assert out["arg1"] is not inputs["arg1"]
    np.testing.assert_array_equal(out["arg1"], inputs["arg0"])


def test_make_inputs_is_deterministic_per_seed():
    f = kernel_function(_copy_kernel())
    a, b, c = make_inputs(f, 7), make_inputs(f, 7), make_inputs(f, 8)
    assert sorted(a) == ["arg0", "arg1"]
    np.testing.assert_array_equal(a["arg0"], b["arg0"])
    assert not np.array_equal(a["arg0"], c["arg0"])
    assert a["arg0"].dtype == np.float32 and a["arg0"].shape == (8,)
    assert -1 <= a["arg0"].min() and a["arg0"].max() <= 1


def test_missing_or_misshaped_input_is_a_clear_error():
    module = _copy_kernel()
    with pytest.raises(ReferenceError, match="no input for GM argument arg1"):
        run_reference(module, {"arg0": np.zeros(8, np.float32)})
    with pytest.raises(ReferenceError, match=r"input arg1 has shape \[4\]"):
        run_reference(module, {"arg0": np.zeros(8, np.float32), "arg1": np.zeros(4, np.float32)})


def test_inputs_by_argument_name():
    text = kernel([("8", "f32")] * 2, load("u", "a0", "8", "f32") + store("u", "a1", "8", "f32"))
    module = parse(text)
    x = np.arange(8, dtype=np.float32)
    out = run_reference(module, {"a0": x, "a1": np.zeros(8, np.float32)})
    np.testing.assert_array_equal(out["arg1"], x)


def test_out_of_bounds_subview_is_reported():
    view = "memref<8xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>"
    body = (
        "  %c4 = arith.constant 4 : index\n"
        f"  %s = memref.subview %a0[%c4] [8] [1] : {mem('8', 'f32', 'gm')} to {view}\n"
        f"  %u = memref.alloc() : {mem('8', 'f32', 'ub')}\n"
        f"  tile.copy ins(%s : {view}) outs(%u : {mem('8', 'f32', 'ub')})\n"
    )
    module = parse(kernel([("8", "f32")], body))
    with pytest.raises(ReferenceError, match="out of bounds"):
        run_reference(module, make_inputs(kernel_function(module), 0))


# --------------------------------------------------------------------------------------
# the example kernels compute what their comments say
# --------------------------------------------------------------------------------------

from pathlib import Path  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _example(name: str):
    module = parse((EXAMPLES / f"{name}.mlir").read_text())
    inputs = make_inputs(kernel_function(module), seed=5)
    return inputs, run_reference(module, inputs)


def test_example_vecadd():
    inputs, out = _example("vecadd")
    np.testing.assert_array_equal(out["arg2"], inputs["arg0"] + inputs["arg1"])


def test_example_softmax():
    inputs, out = _example("softmax")
    x = inputs["arg0"].astype(np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(out["arg1"], e / e.sum(axis=1, keepdims=True), rtol=1e-5)


@pytest.mark.parametrize("name", ["gemm", "gemm_910b", "gemm_relu"])
def test_example_gemms(name):
    inputs, out = _example(name)
    assert is_representable(inputs["arg0"], BFloat16Type())
    expected = inputs["arg0"].astype(np.float64) @ inputs["arg1"].astype(np.float64)
    if name == "gemm_relu":
        expected = np.maximum(expected, 0)
    np.testing.assert_allclose(out["arg2"], expected, rtol=1e-5, atol=1e-5)


def test_scalar_kernel_arguments():
    """Non-GM arguments (a scale and a tile count) are taken from the inputs by name."""
    t = mem("8", "f32", "ub")
    text = (
        f"func.func @k(%a0: {mem('8', 'f32', 'gm')}, %a1: {mem('8', 'f32', 'gm')}, %s: f32, %n: index)"
        " attributes {tile.kernel} {\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %c1 = arith.constant 1 : index\n"
        + load("u", "a0", "8", "f32")
        + "  scf.for %i = %c0 to %n step %c1 {\n"
        f"    tile.mul ins(%u, %s : {t}, f32) outs(%u : {t})\n"
        "  }\n"
        + store("u", "a1", "8", "f32")
        + "  return\n}\n"
    )
    module = parse(text)
    inputs = make_inputs(kernel_function(module), 0)
    # scalars get sim.binding's documented defaults (float 0.5, integer 1000)
    assert inputs["arg2"] == 0.5 and inputs["arg3"] == 1000
    arrays = {k: inputs[k] for k in ("arg0", "arg1")}
    out = run_reference(module, dict(arrays, arg2=np.float32(2.0), n=3))
    np.testing.assert_array_equal(out["arg1"], inputs["arg0"] * 8)
    with pytest.raises(ReferenceError, match="no input for argument arg2"):
        run_reference(module, arrays)


def test_make_inputs_keeps_hivm_ln_inputs_positive():
    """make_inputs also serves the simulator on hivm-level kernels."""
    t = mem("16", "f32", "ub")
    text = (
        f"func.func @k(%a0: {mem('16', 'f32', 'gm')}, %a1: {mem('16', 'f32', 'gm')}, %a2: {mem('16', 'f32', 'gm')}) {{\n"
        f"  %u = memref.alloc() : {t}\n"
        f"  hivm.hir.load ins(%a0 : {mem('16', 'f32', 'gm')}) outs(%u : {t})\n"
        f"  hivm.hir.vln ins(%u : {t}) outs(%u : {t})\n"
        f"  %v = memref.alloc() : {t}\n"
        f"  hivm.hir.load ins(%a1 : {mem('16', 'f32', 'gm')}) outs(%v : {t})\n"
        f"  hivm.hir.store ins(%v : {t}) outs(%a2 : {mem('16', 'f32', 'gm')})\n"
        "  return\n}\n"
    )
    inputs = make_inputs(kernel_function(parse(text)), 0)
    assert inputs["arg0"].min() >= 0.5
    assert inputs["arg1"].min() < 0 and inputs["arg2"].min() < 0


def test_ub_to_ub_and_ub_to_cbuf_copies():
    """Copies on the vector side (ub -> ub) and into L1 (ub -> cbuf, feeding a matmul)."""
    tu, ta = mem("8x8", "f16", "ub"), mem("8x8", "f16", "cbuf")
    tc = mem("8x8", "f32", "cc")
    body = (
        "  %true = arith.constant true\n"
        + load("x", "a0", "8x8", "f16")
        + f"  %y = memref.alloc() : {tu}\n"
        + f"  tile.copy ins(%x : {tu}) outs(%y : {tu})\n"
        + f"  %l1 = memref.alloc() : {ta}\n"
        + f"  tile.copy ins(%y : {tu}) outs(%l1 : {ta})\n"
        + f"  %acc = memref.alloc() : {tc}\n"
        + f"  tile.matmul ins(%l1, %l1 : {ta}, {ta}) outs(%acc : {tc}) init(%true : i1)\n"
        + f"  tile.copy ins(%acc : {tc}) outs(%a1 : {mem('8x8', 'f32', 'gm')})\n"
    )
    inputs, out = run(kernel([("8x8", "f16"), ("8x8", "f32")], body))
    x = inputs["arg0"].astype(np.float32)
    np.testing.assert_allclose(out["arg1"], x @ x, rtol=1e-6, atol=1e-6)
