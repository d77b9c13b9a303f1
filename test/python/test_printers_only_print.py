"""Targets print; they never write to the IR they are given (issue 7: printers only print).

Every op of the module gets read-only `attributes` and `properties`, so a target that
writes to them, even to put the old value back afterwards, fails here at the write; and
the generic text of the module must be the same after the target ran.
"""

from __future__ import annotations

from io import StringIO
from pathlib import Path
from typing import NoReturn

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer

from ascend_mlir.dialects import register_dialects
from ascend_mlir.targets import get_all_targets
from ascend_mlir.testing import run_console_script

ROOT = Path(__file__).resolve().parents[2]


class _ReadOnlyDict(dict):  # pyright: ignore[reportMissingTypeArgument]
    """A dict that refuses every write: what a printer may do with an op's dictionaries."""

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise AssertionError(f"a target wrote to the IR it prints ({args[:1]})")

    __setitem__ = __delitem__ = pop = popitem = clear = update = setdefault = _refuse  # pyright: ignore[reportAssignmentType]


def _freeze(module: ModuleOp) -> None:
    for op in module.walk():
        op.attributes = _ReadOnlyDict(op.attributes)
        op.properties = _ReadOnlyDict(op.properties)


def _generic(module: ModuleOp) -> str:
    stream = StringIO()
    Printer(stream=stream, print_generic_format=True).print_op(module)
    return stream.getvalue()


def _compiled(name: str, target: str) -> ModuleOp:
    run = run_console_script("ascend-opt", [str(ROOT / "examples" / name), "-p", f"ascend-compile{{target={target}}}"])
    assert run.returncode == 0, run.err
    return Parser(register_dialects(Context()), run.out, name).parse_module()


@pytest.fixture(scope="module")
def compiled() -> dict[tuple[str, str], str]:
    """Two compiled examples as text: vector ops (split operand segments) and a MIX GEMM,
    for the npuir route and for the CCE route (mmadL1 lowered: what -t cce prints)."""
    return {(name, target): _generic(_compiled(name, target))
            for name in ("softmax.mlir", "gemm_relu.mlir") for target in ("npuir", "cce")}


def test_the_read_only_dict_refuses_writes() -> None:
    """The guard itself: the write the IRDL printer used to do (and undo) is refused."""
    frozen = _ReadOnlyDict({"operandSegmentSizes": 1})
    with pytest.raises(AssertionError, match="wrote to the IR"):
        frozen["operandSegmentSizes"] = 2
    with pytest.raises(AssertionError):
        frozen.pop("operandSegmentSizes")


@pytest.mark.parametrize("example", ["softmax.mlir", "gemm_relu.mlir"])
@pytest.mark.parametrize("target", ["irdl", "cce", "npuir", "schedule-json", "schedule-svg"])
def test_target_leaves_the_module_unchanged(target: str, example: str, compiled: dict[tuple[str, str], str]) -> None:
    ctx = register_dialects(Context())
    module = Parser(ctx, compiled[(example, "cce" if target == "cce" else "npuir")], example).parse_module()
    before = _generic(module)
    _freeze(module)
    output = StringIO()
    get_all_targets()[target]()().emit(ctx, module, output)
    assert output.getvalue()
    assert _generic(module) == before
