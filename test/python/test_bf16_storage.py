"""One storage convention for 16-bit floats, end to end: bf16 values live in
ml_dtypes.bfloat16 arrays (f16 in numpy float16) in the generated inputs, the reference
interpreter, the simulator's memories and outputs, and the CCE route; every computed
bf16 value is rounded once, from float32 (never step by step in bf16, never through
another type, never truncated).

Each rounding test first checks that its inputs tell the two apart: the value rounded
twice (or truncated) differs from the value rounded once, so the test fails if the code
under test rounded twice.
"""

from __future__ import annotations

import shutil

import ml_dtypes
import numpy as np
import pytest
from xdsl.context import Context
from xdsl.utils.exceptions import VerifyException

from ascend_mlir.sim.reference import kernel_function, make_inputs, run_reference
from ascend_mlir.sim.simulator import simulate
from ascend_mlir.transforms.ascend_compile import AscendCompilePass

from test_reference import kernel, load, mem, parse, reduce_kernel, store

BF16 = np.dtype(ml_dtypes.bfloat16)


def _bits(values: np.ndarray) -> np.ndarray:
    values = np.asarray(values)
    assert values.dtype == BF16, values.dtype
    return values.view(np.uint16)


def _reference_and_simulator(text: str, inputs: dict[str, np.ndarray]) -> tuple[dict, dict]:
    """Outputs of the reference on the tile-level kernel and of the simulator on the
    compiled one, from the same inputs."""
    module = parse(text)
    expected = run_reference(module, inputs)
    compiled = module.clone()
    AscendCompilePass(sync="barrier-all", schedule="program-order").apply(Context(), compiled)
    result = simulate(compiled, inputs)
    assert result.ok, [r.message() for r in result.races]
    return expected, result.outputs


def _stepwise_bf16_sum(row: np.ndarray) -> np.floating:
    """What a sum kept in bf16 would give: every partial sum rounded to bf16."""
    acc = BF16.type(0)
    for v in row:
        acc = (np.float32(acc) + np.float32(v)).astype(BF16)
    return acc


def test_storage_is_ml_dtypes_everywhere():
    """bf16 arguments are ml_dtypes.bfloat16 and f16 ones float16 in the generated inputs,
    the reference's outputs and the simulator's outputs; f32 stays float32."""
    body = (
        load("x", "a0", "64", "bf16") + store("x", "a1", "64", "bf16")
        + load("h", "a2", "64", "f16") + store("h", "a3", "64", "f16")
        + load("f", "a4", "64", "f32") + store("f", "a5", "64", "f32")
    )
    text = kernel([("64", "bf16")] * 2 + [("64", "f16")] * 2 + [("64", "f32")] * 2, body)
    inputs = make_inputs(kernel_function(parse(text)), seed=3)
    want = {"arg0": BF16, "arg1": BF16, "arg2": np.float16, "arg3": np.float16, "arg4": np.float32}
    for name, dtype in want.items():
        assert inputs[name].dtype == dtype, name
    expected, outputs = _reference_and_simulator(text, inputs)
    for name, dtype in want.items():
        assert expected[name].dtype == dtype and outputs[name].dtype == dtype, name
    # copies move the 16 bits unchanged
    np.testing.assert_array_equal(_bits(expected["arg1"]), _bits(inputs["arg0"]))
    np.testing.assert_array_equal(_bits(outputs["arg1"]), _bits(inputs["arg0"]))


def test_row_sum_is_rounded_once():
    """1 + 126 x 2^-8: summed in float32 and rounded once it is 1.4921875; kept in bf16
    step by step every 1 + 2^-8 is a tie back to 1.0."""
    row = np.array([1.0] + [2.0**-8] * 126 + [0.0], dtype=BF16).reshape(1, 128)
    once = np.float32(row.astype(np.float32).sum()).astype(BF16)
    assert float(once) == 1.4921875
    assert float(_stepwise_bf16_sum(row[0])) == 1.0  # the test can tell the two apart
    text = reduce_kernel("sum", "1x128", "1x1", "bf16", "1")
    inputs = {"arg0": row, "arg1": np.zeros((1, 1), BF16)}
    expected, outputs = _reference_and_simulator(text, inputs)
    assert _bits(expected["arg1"])[0, 0] == _bits(np.array([once]))[0]
    assert _bits(outputs["arg1"])[0, 0] == _bits(np.array([once]))[0]


def test_rsqrt_on_bf16_is_refused_as_bishengir_refuses_it():
    """bishengir's verifiers take rsqrt on f16/f32 only (test_element_types.py): a bf16
    rsqrt is a located error, not a value rounded by our own convention."""
    t = mem("64", "bf16", "ub")
    body = (
        load("x", "a0", "64", "bf16")
        + f"  %y = memref.alloc() : {t}\n"
        + f"  tile.rsqrt ins(%x : {t}) outs(%y : {t})\n"
        + store("y", "a1", "64", "bf16")
    )
    with pytest.raises(VerifyException, match="rsqrt computes on f16, f32 only"):
        _reference_and_simulator(kernel([("64", "bf16")] * 2, body), {"arg0": np.zeros(64, BF16), "arg1": np.zeros(64, BF16)})


def test_bf16_matmul_accumulates_exactly_in_f32():
    """bf16 x bf16 -> f32: products and sums of k/16 values are exact in float32 and
    mostly not representable in bf16, so a product rounded to bf16 would show."""
    rng = np.random.default_rng(7)
    a = (rng.integers(-8, 9, (16, 16)) / 16).astype(BF16)
    b = (rng.integers(-8, 9, (16, 16)) / 16).astype(BF16)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    assert np.any(exact.astype(BF16).astype(np.float64) != exact)
    l1a, l1b, cc = mem("16x16", "bf16", "cbuf"), mem("16x16", "bf16", "cbuf"), mem("16x16", "f32", "cc")
    body = (
        "  %true = arith.constant true\n"
        f"  %la = memref.alloc() : {l1a}\n  %lb = memref.alloc() : {l1b}\n  %c = memref.alloc() : {cc}\n"
        f"  tile.copy ins(%a0 : {mem('16x16', 'bf16', 'gm')}) outs(%la : {l1a})\n"
        f"  tile.copy ins(%a1 : {mem('16x16', 'bf16', 'gm')}) outs(%lb : {l1b})\n"
        f"  tile.matmul ins(%la, %lb : {l1a}, {l1b}) outs(%c : {cc}) init(%true : i1)\n"
        f"  tile.copy ins(%c : {cc}) outs(%a2 : {mem('16x16', 'f32', 'gm')})\n"
    )
    text = kernel([("16x16", "bf16"), ("16x16", "bf16"), ("16x16", "f32")], body)
    inputs = {"arg0": a, "arg1": b, "arg2": np.zeros((16, 16), np.float32)}
    expected, outputs = _reference_and_simulator(text, inputs)
    np.testing.assert_array_equal(expected["arg2"], exact.astype(np.float32))
    np.testing.assert_array_equal(outputs["arg2"], exact.astype(np.float32))


def _float32_inputs() -> tuple[np.ndarray, np.ndarray]:
    """float32 values just above bf16 ties (and below them, negated): rounded once to
    nearest they go up in magnitude, truncated they go down; (values, rounded once)."""
    ulp = 2.0**-7
    x = np.array([1 + ulp / 2 + 2.0**-20, -(1 + ulp / 2 + 2.0**-20), 1 + ulp / 2, 1.5 + ulp / 4] * 16,
                 dtype=np.float32)
    once = x.astype(BF16)
    truncated = (x.view(np.uint32) >> 16).astype(np.uint16).view(BF16)
    assert np.any(_bits(once) != _bits(truncated))
    return x, once


def test_float32_inputs_of_a_bf16_argument_are_rounded_once():
    """A caller may hand float32 arrays for bf16 arguments (the Python DSL allows it):
    the reference and the simulator round them once, to nearest even, identically."""
    x, once = _float32_inputs()
    body = load("x", "a0", "64", "bf16") + store("x", "a1", "64", "bf16")
    text = kernel([("64", "bf16")] * 2, body)
    expected, outputs = _reference_and_simulator(text, {"arg0": x, "arg1": np.zeros(64, np.float32)})
    np.testing.assert_array_equal(_bits(expected["arg1"]), _bits(once))
    np.testing.assert_array_equal(_bits(outputs["arg1"]), _bits(once))


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not found: the CCE emulation cannot be built")
def test_cce_route_keeps_bf16_bits():
    """The CCE emulation's marshalling: bf16 inputs reach the device as their 16 bits
    and come back as ml_dtypes.bfloat16; float32 inputs are rounded once, not truncated."""
    from ascend_mlir.sim import via_cce

    body = (load("x", "a0", "64", "bf16") + store("x", "a1", "64", "bf16")
            + load("y", "a2", "64", "bf16") + store("y", "a3", "64", "bf16"))
    text = kernel([("64", "bf16")] * 4, body)
    module = parse(text)
    compiled = module.clone()
    AscendCompilePass(sync="barrier-all", schedule="program-order").apply(Context(), compiled)
    unit = via_cce.unit_of(compiled, "dav-3510", "bf16_storage")
    lib = via_cce.build([unit])
    x, once = _float32_inputs()
    bf = make_inputs(kernel_function(module), seed=1)["arg0"]
    inputs = {"arg0": bf, "arg1": np.zeros(64, BF16), "arg2": x, "arg3": np.zeros(64, BF16)}
    result = via_cce.run_kernel(lib, unit, unit.kernels[0], inputs)
    assert result.error is None, result.error
    np.testing.assert_array_equal(_bits(result.outputs["arg1"]), _bits(bf))
    np.testing.assert_array_equal(_bits(result.outputs["arg3"]), _bits(once))


def test_make_inputs_draws_the_values_of_one_uniform_draw_per_operand():
    """make_inputs draws floats chunk by chunk (reference._DRAW_CHUNK): the same values as
    one rng.uniform over each operand, in argument order, rounded once to the element
    type, on operands smaller and larger than a chunk and not a multiple of it."""
    from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, MemRefType
    from xdsl.dialects.func import FuncOp

    from ascend_mlir.sim import reference
    from ascend_mlir.sim.reference_numerics import to_storage

    shapes = [(3, 5), (reference._DRAW_CHUNK + 7,), (2, reference._DRAW_CHUNK // 2 + 1), ()]
    types = [BFloat16Type(), Float32Type(), Float16Type(), BFloat16Type()]
    f = FuncOp("k", ([MemRefType(t, s) for t, s in zip(types, shapes)], []))
    got = reference.make_inputs(f, 5)
    rng = np.random.default_rng(5)
    for i, (t, s) in enumerate(zip(types, shapes)):
        want = to_storage(rng.uniform(-1.0, 1.0, size=s), t)
        assert got[f"arg{i}"].dtype == want.dtype and got[f"arg{i}"].shape == want.shape
        assert got[f"arg{i}"].tobytes() == want.tobytes(), i
