"""`ascend-lower-wide-reduce`: dav-c220 row reductions wider than one repeat, as IR.

The 910B's whole-reduce (`vcmax` / `vcmin` / `vcadd`) reduces one 256-byte repeat of each
row (64 f32, 128 f16) into one result per row. A row reduction over more columns is
several V instructions through UB: the first repeat of every row into dst, then per
further repeat a whole-reduce into a scratch row and an elementwise fold of it into dst.
Those steps depend on one another through UB, and the 910B does not order its vector
pipe (`chips.needs_barrier`), so `pipe_barrier[<PIPE_V>]` separates them. This pass
writes all of it as IR, so the sync checker (ascend-verify-sync, and the cce printer's
check), the simulator's race detector and its timing see every instruction, barrier and
byte the printed C has; the printer prints each step as one call:

    hivm.hir.vreduce <max> ins(%u : memref<16x256xf32, ub>) outs(%m : memref<16x1xf32, ub>) reduce_dims = [1]
      ->
    %c1 = memref.subview %u[0, 0] [16, 64] [1, 1] ...
    hivm.hir.vreduce <max> ins(%c1 ...) outs(%m ...) reduce_dims = [1]
    %c2 = memref.subview %u[0, 64] [16, 64] [1, 1] ...
    hivm.hir.vreduce <max> ins(%c2 ...) outs(%scratch ...) reduce_dims = [1]
    hivm.hir.pipe_barrier[<PIPE_V>]          // the fold reads the scratch and dst
    hivm.hir.vmax ins(%m, %scratch ...) outs(%m ...)
    hivm.hir.pipe_barrier[<PIPE_V>]          // the next repeat (or op) rewrites the scratch
    ... (one pair per further repeat)

The scratch is one `hivm.hir.pointer_cast` per function at the top of UB, above every
planned UB buffer of the function (bounded over its loops), sized for the tallest
reduction; nothing else touches it, and each lowered reduction ends with a V barrier
after its last read of it. The pass runs on planned, synced IR (ascend-compile{target=cce}
runs it after ascend-insert-sync, with ascend-lower-mmad-l0; `-t cce` refuses a wide
dav-c220 reduction it has not lowered). On another chip (the 950's vector unit reduces
in registers, any width) it changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from xdsl.context import Context
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from ascend_mlir.analysis.address_bounds import ub_high_water
from ascend_mlir.analysis.latency_model import element_bytes
from ascend_mlir.chips import Chip, ChipError, needs_barrier, resolve_chip
from ascend_mlir.diagnostics import op_error
from ascend_mlir.dialects import hivm

ARCH = "dav-c220"
REPEAT_BYTES = 256  # one whole-reduce repeat: 8 blocks of 32 bytes
FOLD = {"sum": hivm.VAddOp, "max": hivm.VMaxOp, "min": hivm.VMinOp}


def reduce_kind(op: hivm.VReduceOp) -> str:
    data = op.arith.data
    return str(getattr(data, "value", data)).lower().split(".")[-1]


def static_rows(t: MemRefType) -> tuple[int, int, int, int | None] | None:
    """(rows, cols, row stride, offset or None when dynamic) of a static 2-D strided view."""
    shape = t.get_shape()
    if len(shape) != 2 or DYNAMIC_INDEX in shape:
        return None
    layout = t.layout
    if isinstance(layout, NoneAttr):
        return shape[0], shape[1], shape[1], 0
    if not isinstance(layout, StridedLayoutAttr):
        return None
    strides = layout.get_strides()
    if len(strides) != 2 or strides[1] != 1 or strides[0] is None:
        return None
    offset = layout.get_offset()
    return shape[0], shape[1], strides[0], offset


def wide_reduce_shape(op: Operation) -> tuple[int, int, int] | None:
    """(rows, cols, columns per repeat) of a row reduction wider than one repeat, which
    this pass lowers; None for any other op."""
    if not isinstance(op, hivm.VReduceOp) or len(op.dst) != 1 or op.temp_buffer is not None:
        return None
    if reduce_kind(op) not in FOLD or not isinstance(op.src.type, MemRefType):
        return None
    rows = static_rows(op.src.type)
    dims = tuple(int(d) for d in cast(Any, op.reduce_dims).get_values())
    if rows is None or dims != (1,):
        return None
    per_repeat = REPEAT_BYTES // element_bytes(op.src.type.get_element_type())
    if rows[1] <= per_repeat or rows[1] % per_repeat:
        return None  # one repeat needs no steps; a ragged width the printer refuses
    return rows[0], rows[1], per_repeat


def _chunk(op: hivm.VReduceOp, start: int, width: int) -> memref.SubviewOp:
    t = op.src.type
    assert isinstance(t, MemRefType)
    rows, _, stride, offset = static_rows(t) or (0, 0, 0, None)
    layout = StridedLayoutAttr([stride, 1], None if offset is None else offset + start)
    result = MemRefType(t.get_element_type(), [rows, width], layout, t.memory_space)
    view = memref.SubviewOp(op.src, [], [], [], [0, start], [rows, width], [1, 1], result)
    view.result.name_hint = "repeat"
    return view


def _rows_of(value: SSAValue) -> int:
    t = value.type
    assert isinstance(t, MemRefType)
    return t.get_shape()[0]


def dst_element(op: hivm.VReduceOp):  # noqa: ANN201 - an xDSL element type
    t = op.dst[0].type
    assert isinstance(t, MemRefType)
    return t.get_element_type()


def lower_reduce(op: hivm.VReduceOp, scratch: SSAValue, chip: Chip) -> None:
    rows, cols, per_repeat = wide_reduce_shape(op) or (0, 0, 0)
    kind, dst = reduce_kind(op), op.dst[0]
    point = InsertPoint.before(op)
    steps: list[Operation] = []

    def add(new: Operation) -> None:
        new.location = op.location  # the printed line names the op it comes from
        Rewriter.insert_op(new, point)
        steps.append(new)

    def barrier() -> None:
        if needs_barrier(chip, "V", "V"):
            add(hivm.PipeBarrierOp("V"))

    if rows != _rows_of(scratch):  # a shorter reduction than the tallest: its first rows
        row_view = MemRefType(dst_element(op), [rows, 1], StridedLayoutAttr([1, 1], 0), hivm.address_space("ub"))
        view = memref.SubviewOp(scratch, [], [], [], [0, 0], [rows, 1], [1, 1], row_view)
        add(view)
        scratch = view.result
    first = _chunk(op, 0, per_repeat)
    add(first)
    add(hivm.VReduceOp(hivm.ReduceOpKind(op.arith.data), first, dst, [1]))
    for start in range(per_repeat, cols, per_repeat):
        chunk = _chunk(op, start, per_repeat)
        add(chunk)
        add(hivm.VReduceOp(hivm.ReduceOpKind(op.arith.data), chunk, scratch, [1]))
        barrier()  # the fold reads the scratch this step wrote and dst the one before
        add(FOLD[kind](dst, scratch, dst))
        if start + per_repeat < cols or not _barrier_follows(op):
            barrier()  # the next step (or a later wide reduction) rewrites the scratch
    Rewriter.erase_op(op)


def _barrier_follows(op: Operation) -> bool:
    """Whether the op right after `op` is a barrier that orders V (the IR's own)."""
    after = op.next_op
    return isinstance(after, hivm.PipeBarrierOp) and after.pipe.pipe_name in ("V", "ALL")


def _scratch(func_op: func.FuncOp, reduces: list[hivm.VReduceOp], chip: Chip) -> SSAValue:
    """One UB row at the top of UB, above every planned UB buffer of `func_op`."""
    t = reduces[0].src.type
    assert isinstance(t, MemRefType)
    rows = max((wide_reduce_shape(r) or (0,))[0] for r in reduces)
    size = -(-rows * element_bytes(t.get_element_type()) // 32) * 32
    start = (chip.capacity["ub"] - size) // 32 * 32
    top = ub_high_water(func_op)
    if top is None or top > start:
        reach = top if top is not None else "an unbounded address"
        raise op_error(reduces[0], f"no room for the {size}-byte dav-c220 reduction scratch at the top of UB "
                                   f"(the buffers reach {reach})")
    kinds = {r.src.type.get_element_type() for r in reduces if isinstance(r.src.type, MemRefType)}
    if len(kinds) != 1:
        raise op_error(reduces[0], "wide dav-c220 reductions of several element types in one function "
                                   "are not lowered (one scratch row per function)")
    entry = func_op.body.blocks[0]
    offset = arith.ConstantOp(IntegerAttr(start, i64))
    pointer = hivm.PointerCastOp([offset.result], MemRefType(t.get_element_type(), [rows, 1], NoneAttr(),
                                                             hivm.address_space("ub")))
    Rewriter.insert_op([offset, pointer], InsertPoint.at_start(entry))
    pointer.results[0].name_hint = "reduce_scratch"
    return pointer.results[0]


def lower_function(func_op: func.FuncOp, chip: Chip) -> None:
    reduces = [o for o in func_op.walk() if wide_reduce_shape(o) is not None]
    if not reduces:
        return
    scratch = _scratch(func_op, [r for r in reduces if isinstance(r, hivm.VReduceOp)], chip)
    for op in reduces:
        assert isinstance(op, hivm.VReduceOp)
        lower_reduce(op, scratch, chip)


@dataclass(frozen=True)
class LowerWideReducePass(ModulePass):
    """dav-c220 row reductions wider than one 256-byte repeat -> their steps, scratch and
    V barriers in IR (CCE target on the 910B; nothing on other chips)."""

    name = "ascend-lower-wide-reduce"

    chip: str | None = None
    chip_file: str | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            chip = resolve_chip(op, self.chip or None, self.chip_file or None)
        except ChipError as error:
            raise PassFailedException(str(error)) from None
        if chip.arch != ARCH:
            return
        for func_op in [o for o in op.walk() if isinstance(o, func.FuncOp) and not o.is_declaration]:
            lower_function(func_op, chip)
