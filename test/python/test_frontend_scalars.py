"""Runtime scalars in the Python DSL (issue 17 item 3): `T.Scalar` kernel arguments,
`T.cast` of a runtime size, arithmetic into `arith` ops, and scalars as the scalar
operand of vector ops; misuse is a DSLError at the user's line."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import arith

import ascend_mlir.frontend as T

N = T.symbol("N")


@T.kernel()
def _scaled(x: T.Tensor((64,), "f32"), y: T.Tensor((64,), "f32"), eps: T.Scalar("f32"), n: N):  # pyright: ignore[reportInvalidTypeForm]
    u = T.alloc((64,), "f32", "ub")
    T.copy(x, u)
    T.mul(u, 2.0 * eps - 1.0 / T.cast(n, "f32"), u)
    T.add(u, eps, u)
    T.copy(u, y)


def test_scalar_arguments_build_arith_and_simulate():
    module = _scaled.build()
    kinds = (arith.MulfOp, arith.IndexCastOp, arith.SIToFPOp, arith.DivfOp, arith.SubfOp)
    names = [op.name for op in module.walk() if isinstance(op, kinds)]
    assert names == ["arith.mulf", "arith.index_cast", "arith.sitofp", "arith.divf", "arith.subf"]
    assert "%eps: f32, %n: index" in str(module)
    x = np.linspace(-1, 1, 64, dtype=np.float32)
    report = T.simulate(_scaled, {"x": x}, bind={"eps": 0.25, "n": 4})
    assert report.ok, report
    np.testing.assert_allclose(report.outputs["y"], x * np.float32(2 * 0.25 - 1 / 4) + np.float32(0.25), rtol=1e-6)


def test_scalar_misuse_is_a_dsl_error():
    with pytest.raises(T.DSLError, match="a scalar argument is one of"):
        T.Scalar("f8")

    @T.kernel()
    def wrong_type(x: T.Tensor((64,), "f32"), k: T.Scalar("i32")):  # pyright: ignore[reportInvalidTypeForm]
        u = T.alloc((64,), "f32", "ub")
        T.copy(x, u)
        T.add(u, k, u)

    with pytest.raises(T.DSLError, match="i32 scalar is no operand of a f32 tile: T.cast it"):
        wrong_type.build()

    @T.kernel()
    def branch(x: T.Tensor((64,), "f32"), k: T.Scalar("f32")):  # pyright: ignore[reportInvalidTypeForm]
        if k:
            pass

    with pytest.raises(T.DSLError, match="no truth value"):
        branch.build()

    @T.kernel()
    def mixed(x: T.Tensor((64,), "f32"), a: T.Scalar("f32"), b: T.Scalar("f16")):  # pyright: ignore[reportInvalidTypeForm]
        _ = a + b

    with pytest.raises(T.DSLError, match="do not combine: T.cast one of them"):
        mixed.build()
