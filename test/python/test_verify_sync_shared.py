"""verify-sync's runs share what they compute alike (`verify_sync_engine.RunMemo`: each
op's facts, its footprints per core and iteration, the units whose accesses may conflict
with it, the memoised conflict test of two footprints). Pinned here: the verdict (the
located error's text, a pass, or not verified) and the ages of the varying loops' runs
are the same with the sharing on and off (`verify_functions(shared=False)`: every run
computes its own and searches every unit) on kernels with runtime loops, nested varying
loops, a split MIX kernel and the mutants that drop each of their sync ops."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from ascend_mlir.dialects import hivm
from ascend_mlir.op_errors import OpError
from ascend_mlir.transforms import verify_sync

from test_reference import parse
from test_zero_trip_sync import _compile

INPUTS = Path(__file__).parent / "Inputs"


def _funcs(module: ModuleOp) -> list[func.FuncOp]:
    return [op for op in module.walk() if isinstance(op, func.FuncOp) and op.body.blocks]


def _syncs(module: ModuleOp) -> list:
    return [op for op in module.walk() if isinstance(op, hivm.SYNC_OPS) or isinstance(op, hivm.PipeBarrierOp)]


def _verdict(module: ModuleOp, shared: bool) -> str:
    carried: list[int] = []
    why: list[str] = []
    try:
        ok = verify_sync.verify_functions(_funcs(module), None, carried, why, shared=shared)
    except OpError as e:
        return f"refused at {verify_sync.op_where(e.op)}: {e.message}; ages {carried}"
    return f"{'verified' if ok else 'not verified'} {why}; ages {carried}"


def _verdicts(make: Callable[[], ModuleOp]) -> list[tuple[str, str]]:
    """(shared, plain) verdicts of the kernel and of each mutant without one sync op."""
    out = [(_verdict(make(), True), _verdict(make(), False))]
    for k in range(len(_syncs(make()))):
        pair = []
        for shared in (True, False):
            module = make()
            doomed = _syncs(module)[k]
            doomed.detach()
            doomed.erase()
            pair.append(_verdict(module, shared))
        out.append((pair[0], pair[1]))
    return out


def _parsed(name: str) -> Callable[[], ModuleOp]:
    text = (INPUTS / name).read_text()
    return lambda: parse(text)


def _compiled(name: str) -> Callable[[], ModuleOp]:
    _, module = _compile(name)
    return lambda: module.clone()


@pytest.mark.parametrize("make", [
    pytest.param(lambda: _parsed("double_buffered_rows.mlir"), id="double_buffered_rows"),
    pytest.param(lambda: _parsed("two_sibling_loops.mlir"), id="two_sibling_loops"),
    pytest.param(lambda: _compiled("triangle"), id="triangle"),
    # 22 CPU s (a cross-core kernel and its mutants, each verified twice): out of the fast
    # tier, where triangle's mutants stand in for the shared runs of a compiled kernel
    pytest.param(lambda: _compiled("cube_triangle"), id="cube_triangle", marks=pytest.mark.slow),
])
def test_shared_runs_give_the_plain_verdicts(make):
    verdicts = _verdicts(make())
    differ = [(i - 1, shared, plain) for i, (shared, plain) in enumerate(verdicts) if shared != plain]
    assert not differ, differ
    # the mutants are not all passed: the comparison covers refusals too
    assert any(shared.startswith("refused") for shared, _ in verdicts[1:]), verdicts
