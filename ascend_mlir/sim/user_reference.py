"""A numpy reference the user gives, for kernels we did not compile (`--reference`).

A tile-level kernel brings its own reference (the tile program, interpreted). A kernel
from another frontend (e.g. triton-ascend through bishengir-compile) arrives as hivm IR
with nothing that says what it should compute, so the user names a Python function:

    ascend-sim softmax.hivm.mlir --reference softmax_ref.py[:FUNC] --bind ...

`FUNC` (default `reference`) is called with one keyword argument per kernel argument,
named as written in the file (`%arg3` -> `arg3`, `%x` -> `x`; the FFTS base address is
not passed): GM memrefs as numpy arrays holding the inputs the simulator starts from
(copies: the function may change them), scalars as Python numbers. It returns a dict
from argument names to the expected final contents of those GM arguments (the outputs;
arguments it leaves out are not checked), or one array when the kernel has exactly one
argument marked as an output (`tt.tensor_kind = 1`, triton's spelling, or
`hacc.arg_type<output>`). A Python callable is the most general expectation: it sees
the sizes bound on the command line, so one reference serves every `--bind`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, MemRefType

from ascend_mlir.dialects import hacc
from ascend_mlir.user_modules import UserModuleError, function_of, run_module

__all__ = ["ReferenceSpecError", "data_arguments", "expected_outputs", "load_reference", "output_arguments"]


class ReferenceSpecError(Exception):
    """The reference function cannot be loaded or called, or returned something unusable."""


def load_reference(spec: str) -> Callable[..., Any]:
    """The function `PATH.py[:FUNC]` names (FUNC defaults to `reference`)."""
    path_text, _, name = spec.partition(":") if not spec.endswith(".py") else (spec, "", "")
    name = name or "reference"
    path = Path(path_text)
    if not path.is_file():
        raise ReferenceSpecError(f"--reference {spec}: no such file '{path_text}'")
    try:
        module = run_module(path_text, f"_ascend_sim_reference_{abs(hash(str(path.resolve())))}")
        return function_of(module, name, path_text)
    except UserModuleError as err:
        raise ReferenceSpecError(f"--reference {spec}: {err}") from None


def data_arguments(func_op: func.FuncOp) -> list[tuple[str, str, Any]]:
    """(key "arg<i>", name as written, block argument) of every data argument."""
    data = [a for i, a in enumerate(func_op.args) if not hacc.is_ffts_base_address(func_op, i)]
    return [(f"arg{i}", a.name_hint or f"arg{i}", a) for i, a in enumerate(data)]


def output_arguments(func_op: func.FuncOp) -> list[str]:
    """Names (as written) of the arguments the kernel marks as outputs."""
    names = []
    attrs = func_op.arg_attrs.data if func_op.arg_attrs is not None else ()
    by_index = {a.index: name for _, name, a in data_arguments(func_op)}
    for index, arg_attrs in enumerate(attrs):
        kind = arg_attrs.data.get("tt.tensor_kind")
        arg_type = arg_attrs.data.get(hacc.ARG_TYPE)
        is_output = (isinstance(kind, IntegerAttr) and kind.value.data in (1, 2)) or (
            isinstance(arg_type, hacc.ArgTypeAttr) and arg_type.data in ("output", "input_and_output"))
        if is_output and index in by_index:
            names.append(by_index[index])
    return names


def expected_outputs(fn: Callable[..., Any], func_op: func.FuncOp, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """The expected outputs, keyed "arg<i>" like the simulator's outputs."""
    arguments = data_arguments(func_op)
    kwargs = {}
    for key, name, arg in arguments:
        if key in inputs:
            value = inputs[key]
            kwargs[name] = np.array(value, copy=True) if isinstance(arg.type, MemRefType) else value
    try:
        returned = fn(**kwargs)
    except Exception as err:  # noqa: BLE001 -- the user's function: report, never a traceback
        raise ReferenceSpecError(f"the reference function raised {type(err).__name__}: {err}") from err
    if not isinstance(returned, Mapping):
        outputs = output_arguments(func_op)
        if len(outputs) != 1:
            raise ReferenceSpecError(
                "the reference function returned one value, but the kernel marks "
                f"{len(outputs)} outputs: return a dict from argument names to arrays")
        returned = {outputs[0]: returned}
    key_of = {name: key for key, name, _ in arguments}
    expected = {}
    for name, value in returned.items():
        key = key_of.get(str(name).removeprefix("%"))
        if key is None:
            raise ReferenceSpecError(f"the reference function returned '{name}', which is no argument of "
                                     f"@{func_op.sym_name.data} (its arguments: {', '.join(key_of)})")
        if key not in inputs or not isinstance(inputs[key], np.ndarray):
            raise ReferenceSpecError(f"the reference function returned '{name}', which is no GM argument")
        array = np.asarray(value)
        if array.shape != inputs[key].shape:
            raise ReferenceSpecError(f"the reference function returned '{name}' of shape {list(array.shape)}, "
                                     f"the argument has shape {list(inputs[key].shape)}")
        expected[key] = array.astype(inputs[key].dtype)
    return expected
