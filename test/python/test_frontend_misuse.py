"""Wrong arguments to the DSL's entry points (issue 23 item 6): T.simulate and T.compile
called with a wrong kind of thing end at the caller's line as a DSLError or
CompileError (`file:line:col: error: ...`, what a script prints instead of a
traceback), never an exception from deep inside, and never an unlocated message."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ascend_mlir.frontend as T

HERE = Path(__file__).name


def _ANY(value: Any) -> Any:  # noqa: N802 - a wrong-typed argument on purpose, said once
    return value


@T.kernel(grid=1)
def _copy(x: T.Tensor((64,), "f32"), z: T.Tensor((64,), "f32")):  # pyright: ignore[reportInvalidTypeForm]
    u = T.alloc((64,), "f32", "ub")
    T.copy(x, u)
    T.copy(u, z)


def _located_here(err: BaseException) -> str:
    text = str(err)
    assert re.match(rf"^\S*{re.escape(HERE)}:\d+:\d+: error: ", text), text
    return text


@pytest.mark.parametrize(("call", "message"), [
    (lambda: T.simulate(_copy, {"q": np.zeros(64, np.float32)}), "unknown inputs ['q'] (parameters: x, z)"),
    (lambda: T.simulate(_copy, [np.zeros(64, np.float32)] * 3), "3 inputs for 2 parameters (x, z)"),
    (lambda: T.simulate(_copy, 5), "inputs are a dict by parameter name or a list in parameter order, got int"),
    (lambda: T.simulate(_copy, seed=_ANY("x")), "seed must be a non-negative int, got 'x'"),
    (lambda: T.simulate(_copy, seed=-1), "seed must be a non-negative int, got -1"),
    (lambda: T.simulate(_ANY("k")), "expected a @kernel function, got str"),
    (lambda: T.compile(_copy, target="nosuch"), "unknown target 'nosuch'"),
    (lambda: T.simulate(_copy, chip=""), "chip is empty"),
])
def test_wrong_arguments_are_dsl_errors_at_the_call(call, message):
    with pytest.raises(T.DSLError) as caught:
        call()
    assert message in _located_here(caught.value)


def test_usage_errors_keep_their_python_kinds():
    with pytest.raises(ValueError, match="unknown inputs"):
        T.simulate(_copy, {"q": np.zeros(4)})
    with pytest.raises(TypeError, match="@kernel"):
        T.compile(_ANY(42))
    # an input that is no array of numbers: refused as given, before the simulator sees it
    with pytest.raises(ValueError, match="input x: an array of numbers, got one of <U5") as caught:
        T.simulate(_copy, {"x": "hello"})
    assert _located_here(caught.value)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: T.compile(_copy, num_stages="x", simulate=False), "Incompatible types"),
    (lambda: T.simulate(_copy, {"x": np.zeros(10, np.float32)}), "input arg0 has shape [10]"),
])
def test_what_the_compiler_and_simulator_refuse_is_located_at_the_call(call, message):
    with pytest.raises(T.CompileError) as caught:
        call()
    assert message in _located_here(caught.value)
