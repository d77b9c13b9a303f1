"""ascend-pipeline-loops against the simulator: a skewed loop computes exactly what the
loop in program order computes (static trip counts above, at and below the stage count,
and a dynamic one that differs per block), with no race under barrier sync."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import scf

from ascend_mlir.diagnostics import parse_module
from ascend_mlir.dialects import register_dialects
from ascend_mlir.sim.simulator import simulate
from ascend_mlir.transforms.insert_barrier_sync import InsertBarrierSyncPass
from ascend_mlir.transforms.multi_buffer import MultiBufferPass
from ascend_mlir.transforms.pipeline_loops import PipelineLoopsPass

ROWS = 16


def _kernel(trips: int | None, stages: tuple[int, int, int, int, int], versions: int = 2) -> str:
    """z[r] = exp(x[r]) + y[r] for rows r of this block's slab of 4 rows, `trips` rows
    (None: block_idx + 1, known only at run time). Ops: load x, vexp, load y, vadd, store
    with the given stages at II = 100 (offsets 0, 20, 10, 30, 50)."""
    offsets = (0, 20, 10, 30, 50)
    start = [s * 100 + o for s, o in zip(stages, offsets, strict=True)]

    def slot(i: int) -> str:
        return f"{{ascend.task = #ascend.task<latency = 100, ii = 10, stage = {stages[i]}, start = {start[i]}>}}"

    ub = "memref<64xf32, #hivm.address_space<ub>>"
    gm = f"memref<{ROWS}x64xf32, #hivm.address_space<gm>>"
    row = "memref<64xf32, strided<[1], offset: ?>, #hivm.address_space<gm>>"
    consts = "\n".join(f"    %a{k} = arith.constant {k * 1024} : i64" for k in range(4 * versions))
    bufs = "\n".join(
        f"    %u{b} = hivm.hir.pointer_cast({', '.join(f'%a{b * versions + k}' for k in range(versions))}) : {ub}"
        for b in range(4)
    )
    trip_count = "%trips" if trips is not None else "%n"
    return f"""
module {{
  func.func @k(%x: {gm}, %y: {gm}, %z: {gm}) attributes {{hacc.entry, ascend.grid = 4 : i64}} {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %trips = arith.constant {trips if trips is not None else 0} : index
    %b64 = hivm.hir.get_block_idx -> i64
    %b = arith.index_cast %b64 : i64 to index
    %n = arith.addi %b, %c1 : index
    %base = arith.muli %b, %c4 : index
{consts}
{bufs}
    scf.for %i = %c0 to {trip_count} step %c1 {{
      %r = arith.addi %base, %i : index
      %xs = memref.subview %x[%r, 0] [1, 64] [1, 1] : {gm} to {row}
      hivm.hir.load ins(%xs : {row}) outs(%u0 : {ub}) {slot(0)}
      hivm.hir.vexp {slot(1)} ins(%u0 : {ub}) outs(%u1 : {ub})
      %ys = memref.subview %y[%r, 0] [1, 64] [1, 1] : {gm} to {row}
      hivm.hir.load ins(%ys : {row}) outs(%u2 : {ub}) {slot(2)}
      hivm.hir.vadd {slot(3)} ins(%u1, %u2 : {ub}, {ub}) outs(%u3 : {ub})
      %zs = memref.subview %z[%r, 0] [1, 64] [1, 1] : {gm} to {row}
      hivm.hir.store ins(%u3 : {ub}) outs(%zs : {row}) {slot(4)}
    }} {{ascend.loop = #ascend.loop<ii = 100, mii = 20, status = "optimal", res_mii = {{MTE2 = 20, MTE3 = 10, V = 20}}, rec_mii = 0, binding = "MTE2">}}
    return
  }}
}}
"""


def _compile(text: str, pipeline: bool):
    ctx = register_dialects(Context())
    module = parse_module(ctx, text, "k.mlir")
    MultiBufferPass().apply(ctx, module)
    if pipeline:
        PipelineLoopsPass().apply(ctx, module)
    InsertBarrierSyncPass().apply(ctx, module)
    module.verify()
    return module


def _inputs() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(7)
    return {f"arg{i}": rng.standard_normal((ROWS, 64)).astype(np.float32) for i in range(3)}


SKEWED = (0, 1, 1, 2, 2)  # MTE2 holds stages 0 and 1: skewed


@pytest.mark.parametrize("trips", [4, 3, 2, 1, 0, None])
@pytest.mark.parametrize("stages", [SKEWED, (0, 2, 0, 3, 3)])
def test_skewed_loop_computes_what_program_order_computes(trips, stages):
    text = _kernel(trips, stages, versions=4)
    expected = simulate(_compile(text, pipeline=False), _inputs())
    got = simulate(_compile(text, pipeline=True), _inputs())
    assert got.races == [] and not got.deadlock, got.to_json()
    assert np.array_equal(got.outputs["arg2"], expected.outputs["arg2"])
    written = trips if trips is not None else 4
    if written:
        assert np.any(got.outputs["arg2"] != 0)


def test_dynamic_trip_count_keeps_a_fallback_loop():
    module = _compile(_kernel(None, SKEWED), pipeline=True)
    ops = [op.name for op in module.walk()]
    assert "scf.if" in ops and ops.count("scf.for") == 2  # kernel loop, fallback loop


def test_one_stage_per_pipe_only_reorders():
    # every pipe's ops share a stage (MTE2: 0, V: 1, MTE3: 2): the anchor's case
    module = _compile(_kernel(4, (0, 1, 0, 1, 2)), pipeline=True)
    loops = [op for op in module.walk() if isinstance(op, scf.ForOp)]
    assert len(loops) == 1 and "ascend.pipelined" not in loops[0].attributes
    body = [op.name.removeprefix("hivm.hir.") for op in loops[0].body.block.ops if op.name in (
        "hivm.hir.load", "hivm.hir.vexp", "hivm.hir.vadd", "hivm.hir.store")]
    assert body == ["load", "load", "vexp", "vadd", "store"]  # by start: 0, 10, 120, 130, 250


def test_the_comparison_catches_a_skew_without_versions():
    # one version per buffer cannot hold two iterations in flight: the skewed code then
    # reads the next iteration's data, and the differential test above would see it
    text = _kernel(4, SKEWED, versions=1)
    expected = simulate(_compile(text, pipeline=False), _inputs())
    got = simulate(_compile(text, pipeline=True), _inputs())
    assert not np.array_equal(got.outputs["arg2"], expected.outputs["arg2"])
