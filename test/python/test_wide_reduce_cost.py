"""The schedule costs a dav-c220 wide row reduction as the steps the CCE route runs (issue
19 item 2). ascend-lower-wide-reduce writes those steps after scheduling (it places its
scratch above the planned buffers), so the scheduler costs the unlowered op as their sum
(latency_model.c220_reduce_steps: a whole-reduce per 256-byte repeat, a fold and two V
barriers per further repeat). Checked against the simulator on the 910B CCE route of
softmax, rmsnorm and layernorm: per lowered reduction, the V time of its steps (one
trailing barrier counted where the kernel's own V barrier stands in for it) equals the
latency the schedule gave the op, and softmax's loop runs within 5% of its scheduled II."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from xdsl.dialects.builtin import FileLineColLoc, MemRefType

from ascend_mlir.analysis.latency_model import C220_REDUCE_REPEAT_BYTES, c220_reduce_steps, scalar_cost
from ascend_mlir.chips import resolve_chip
from ascend_mlir.dialects import ascend, hivm

BENCH = Path(__file__).resolve().parents[2] / "bench" / "e2e"
sys.path.insert(0, str(BENCH))
import run as e2e  # noqa: E402


def _where(op) -> str:
    loc = op.location
    assert isinstance(loc, FileLineColLoc)
    return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"


@pytest.mark.parametrize("name", ["softmax", "rmsnorm", "layernorm"])
def test_the_scheduled_latency_of_a_wide_reduction_is_its_steps_on_the_910b(name):
    path = e2e.ROOT / "examples" / f"{name}.mlir"
    scheduled = e2e._compiled(path.read_text(), str(path), chip="ascend910b", target="npuir")
    chip = resolve_chip(scheduled)
    wide = {}
    for op in scheduled.walk():
        if isinstance(op, hivm.VReduceOp) and c220_reduce_steps(op, chip) is not None:
            task = ascend.task_of(op)
            assert task is not None
            assert isinstance(op.src.type, MemRefType)
            repeats = op.src.type.get_shape()[1] * 4 // C220_REDUCE_REPEAT_BYTES  # f32 rows
            wide[_where(op)] = (task.latency, repeats)
    assert wide, name
    lowered = e2e._compiled(path.read_text(), str(path), chip="ascend910b", target="cce")
    cycles, result = e2e._cycles(lowered)
    barrier = scalar_cost(chip).latency
    for where, (latency, repeats) in wide.items():
        steps = [e for e in result.trace if e.loc == where and e.pipe == "V"]
        instances = sum(e.name == "vreduce" for e in steps) // repeats
        assert instances > 0, where
        barriers = sum(e.name.startswith("pipe_barrier") for e in steps)
        kernel_barriers = instances * 2 * (repeats - 1) - barriers  # trailing ones the kernel had
        assert 0 <= kernel_barriers <= instances
        busy = sum(e.end - e.start for e in steps)
        assert busy + kernel_barriers * barrier == instances * latency, (where, busy, instances, latency)


def test_softmax_on_the_910b_cce_route_runs_at_its_scheduled_ii():
    path = e2e.ROOT / "examples" / "softmax.mlir"
    module = e2e._compiled(path.read_text(), str(path), chip="ascend910b", target="cce")
    loops = e2e._steady_ii(module, e2e._cycles(module)[1])
    assert loops
    for loop in loops:
        assert abs(loop["measured_ii"] - loop["scheduled_ii"]) <= 0.05 * loop["scheduled_ii"], loop


COLUMN = """
func.func @k(%u: memref<{rows}x{cols}x{t}, #hivm.address_space<ub>>, %m: memref<1x{cols}x{t}, #hivm.address_space<ub>>) {{
  hivm.hir.vreduce <{kind}> ins(%u : memref<{rows}x{cols}x{t}, #hivm.address_space<ub>>) outs(%m : memref<1x{cols}x{t}, #hivm.address_space<ub>>) reduce_dims = [0]
  return
}}
"""


@pytest.mark.parametrize(("rows", "cols", "t", "kind"), [
    (16, 64, "f32", "sum"), (2, 256, "f32", "max"), (8, 128, "f16", "min"), (33, 48, "f32", "sum")])
def test_a_column_reduction_on_the_910b_costs_its_steps(rows, cols, t, kind):
    """Issue 19 item 3: the scheduler costs a dav-c220 column reduction as the sum of the
    steps ascend-lower-wide-reduce writes for it (a one-row reduction, then a V barrier
    and a fold per further row); on the 950 (one instruction) it is not split."""
    from xdsl.dialects import func
    from xdsl.parser import Parser

    from ascend_mlir.analysis.latency_model import c220_column_reduce_steps, estimate
    from ascend_mlir.chips import load_chip
    from ascend_mlir.context import make_context
    from ascend_mlir.transforms.lower_wide_reduce import lower_column_reduce

    module = Parser(make_context(), COLUMN.format(rows=rows, cols=cols, t=t, kind=kind)).parse_module()
    chip = load_chip("ascend910b")
    op = next(o for o in module.walk() if isinstance(o, hivm.VReduceOp))
    assert c220_column_reduce_steps(op, load_chip("ascend950")) is None
    latency, ii = estimate(op, chip)
    assert latency == ii
    lower_column_reduce(op, chip)
    f = next(o for o in module.walk() if isinstance(o, func.FuncOp))
    steps = [o for o in f.walk() if isinstance(o, hivm.HivmPipeOp)]
    assert sum(isinstance(o, hivm.PipeBarrierOp) for o in steps) == rows - 1
    assert latency == sum(estimate(o, chip)[0] for o in steps)
