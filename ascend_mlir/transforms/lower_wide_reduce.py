"""`ascend-lower-wide-reduce`: dav-c220 reductions and broadcasts of several V instructions, as IR.

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

A runtime width (a partial tile) gives every repeat up to the width's bound a runtime
width min(max(cols - start, 0), 64) (zero past the row's end: that whole-reduce gives the
identity, which the fold keeps dst by); a ragged static width the same with a static last
width. The printer prints each repeat as one whole-reduce with a run-time lane mask.

The same pass lowers the two other dav-c220 ops of several dependent V instructions:
* a column reduction (reduce_dims = [0]) of R > 1 static rows into [1, cols]: the first
  row's one-row column reduction (a copy), then per further row a V barrier and a fold;
* a row broadcast into a partial tile: a vbrc of the column into one 32-byte block per
  row of the scratch (vbrcb), a V barrier, `cce.repeat_blocks` (each row's block along
  its row: the 910B's vcopy with source block stride 0), a V barrier.

The scratch is one region per function at the top of UB, above every planned UB buffer
of the function (bounded over its loops), sized for the tallest reduction and the
tallest broadcast (rows rounded up to 8: vbrcb fills 8 blocks a repeat), as two
`hivm.hir.pointer_cast`s at one address; nothing else touches it, and each lowered op
ends with a V barrier after its last read of it. The scheduler costs a wide row
reduction as these steps (latency_model.c220_reduce_steps), so its schedule plans for
them though they are written after it. The pass runs on planned, synced IR (ascend-compile{target=cce}
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
    IndexType,
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

from ascend_mlir.analysis.address_bounds import ub_high_water
from ascend_mlir.analysis.latency_model import C220_REDUCE_REPEAT_BYTES, element_bytes
from ascend_mlir.analysis.size_bounds import static_bound_shape
from ascend_mlir.chips import Chip, needs_barrier
from ascend_mlir.diagnostics import op_error
from ascend_mlir.dialects import cce, hivm
from ascend_mlir.transforms.estimate_latency import module_chip

ARCH = "dav-c220"
REPEAT_BYTES = C220_REDUCE_REPEAT_BYTES  # one whole-reduce repeat: 8 blocks of 32 bytes
FOLD = {"sum": hivm.VAddOp, "max": hivm.VMaxOp, "min": hivm.VMinOp}

Extent = int | SSAValue  # a static size, or the index value of a runtime one


def reduce_kind(op: hivm.VReduceOp) -> str:
    data = op.arith.data
    return str(getattr(data, "value", data)).lower().split(".")[-1]


def row_layout(t: MemRefType) -> tuple[int, int | None] | None:
    """(row stride, offset or None when dynamic) of a 2-D view whose rows are unit-stride
    with a static row stride; None for any other view."""
    shape = t.get_shape()
    if len(shape) != 2:
        return None
    layout = t.layout
    if isinstance(layout, NoneAttr):
        return (shape[1], 0) if shape[1] != DYNAMIC_INDEX else None
    if not isinstance(layout, StridedLayoutAttr):
        return None
    strides = layout.get_strides()
    if len(strides) != 2 or strides[1] != 1 or strides[0] is None:
        return None
    return strides[0], layout.get_offset()


def _candidate(op: Operation) -> tuple[hivm.VReduceOp, tuple[int, ...], tuple[int, int]] | None:
    """(op, reduce dims, bound of the source's rows and columns) of a 2-D sum/max/min
    reduction of a row-major strided view with static bounds; None for any other op."""
    if not isinstance(op, hivm.VReduceOp) or len(op.dst) != 1 or op.temp_buffer is not None:
        return None
    if reduce_kind(op) not in FOLD or not isinstance(op.src.type, MemRefType) or row_layout(op.src.type) is None:
        return None
    bound = static_bound_shape(op.src)
    if bound is None:
        return None
    dims = tuple(int(d) for d in cast(Any, op.reduce_dims).get_values())
    return op, dims, (bound[0], bound[1])


def per_repeat(op: hivm.VReduceOp) -> int:
    t = op.src.type
    assert isinstance(t, MemRefType)
    return REPEAT_BYTES // element_bytes(t.get_element_type())


def wide_reduce_shape(op: Operation) -> tuple[int, int, int] | None:
    """(bound rows, bound cols, columns per repeat) of a row reduction that may be wider
    than one repeat (static or runtime width), which this pass lowers; None for any
    other op."""
    found = _candidate(op)
    if found is None or found[1] != (1,):
        return None
    reduce, _, (rows, cols) = found
    width = per_repeat(reduce)
    return (rows, cols, width) if cols > width else None


def column_reduce_rows(op: Operation) -> int | None:
    """The static row count of a column reduction (reduce_dims = [0]) of more than one row
    into one [1, cols] row, which this pass lowers; None for any other op."""
    found = _candidate(op)
    if found is None or found[1] != (0,):
        return None
    reduce, _, _ = found
    src, dst = reduce.src.type, reduce.dst[0].type
    assert isinstance(src, MemRefType)
    rows = src.get_shape()[0]
    if rows == DYNAMIC_INDEX or rows <= 1 or not isinstance(dst, MemRefType) or len(dst.get_shape()) != 2 \
            or dst.get_shape()[0] != 1:
        return None
    return rows


def partial_broadcast_rows(op: Operation) -> int | None:
    """The bound rows of a row broadcast (broadcast_dims = [1]) into a partial tile (a
    runtime row or column count) that this pass lowers; None for any other op, and for
    the block fill it lowers one to (one 32-byte block per row, which vbrcb writes)."""
    if not isinstance(op, hivm.VBrcOp) or not isinstance(op.src.type, MemRefType):
        return None
    t = op.dst.type
    if not isinstance(t, MemRefType) or len(t.get_shape()) != 2 or DYNAMIC_INDEX not in t.get_shape():
        return None
    if tuple(int(d) for d in cast(Any, op.broadcast_dims).get_values()) != (1,):
        return None
    per_block = 32 // element_bytes(t.get_element_type())
    layout = row_layout(t)
    if t.get_shape()[1] == per_block and layout is not None and layout[0] == per_block:
        return None
    bound = static_bound_shape(op.dst)
    return None if bound is None else bound[0]


def needs_lowering(op: Operation) -> bool:
    """Whether `op` is a reduction or broadcast this pass lowers on dav-c220 (the printer
    refuses it there unlowered)."""
    return wide_reduce_shape(op) is not None or column_reduce_rows(op) is not None \
        or partial_broadcast_rows(op) is not None


def extent(op: Operation, value: SSAValue, dim: int) -> Extent:
    """Dimension `dim` of the memref `value`: its static size, or the runtime size operand
    of the subview that made it."""
    t = value.type
    assert isinstance(t, MemRefType)
    shape = t.get_shape()
    if shape[dim] != DYNAMIC_INDEX:
        return shape[dim]
    owner = value.owner
    if isinstance(owner, memref.SubviewOp):
        static = [int(s) for s in owner.static_sizes.get_values()]
        position = sum(1 for s in static[:dim] if s == DYNAMIC_INDEX)
        return owner.sizes[position]
    raise op_error(op, f"dimension {dim} of this operand has a runtime size that no memref.subview gives: "
                       "its dav-c220 steps are not lowered")


class Steps:
    """Inserts the lowered steps of one op before it, located at the op (the printed line
    names the op it comes from)."""

    def __init__(self, op: Operation, chip: Chip) -> None:
        self.op, self.chip, self.point = op, chip, InsertPoint.before(op)

    def add(self, new: Operation) -> Operation:
        new.location = self.op.location
        Rewriter.insert_op(new, self.point)
        return new

    def barrier(self) -> None:
        if needs_barrier(self.chip, "V", "V"):
            self.add(hivm.PipeBarrierOp("V"))

    def index(self, value: int) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, IndexType()))).results[0]

    def width(self, cols: Extent, start: int, most: int) -> Extent:
        """min(max(cols - start, 0), most): the columns of the repeat at `start`."""
        if isinstance(cols, int):
            return max(0, min(most, cols - start))
        rest = cols
        if start:
            rest = self.add(arith.SubiOp(cols, self.index(start))).results[0]
            rest = self.add(arith.MaxSIOp(rest, self.index(0))).results[0]
        return self.add(arith.MinSIOp(rest, self.index(most))).results[0]

    def view(self, source: SSAValue, offsets: tuple[int, int], sizes: tuple[Extent, Extent],
             name: str | None = None) -> SSAValue:
        t = source.type
        assert isinstance(t, MemRefType)
        stride, offset = row_layout(t) or (0, None)
        start = None if offset is None else offset + offsets[0] * stride + offsets[1]
        shape = [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes]
        result = MemRefType(t.get_element_type(), shape, StridedLayoutAttr([stride, 1], start), t.memory_space)
        view = memref.SubviewOp.get(source, list(offsets), list(sizes), [1, 1], result)
        self.add(view)
        if name:
            view.result.name_hint = name
        return view.result


def lower_reduce(op: hivm.VReduceOp, scratch: SSAValue, chip: Chip) -> None:
    """Repeat by repeat: the first into dst, each further one into the scratch rows and
    folded into dst, with V barriers where the chip does not order V. A runtime width
    gives every repeat up to the bound a runtime width of at most one repeat (zero past
    the row's end: its whole-reduce gives the identity, which the fold leaves dst by)."""
    _, cols_bound, width = wide_reduce_shape(op) or (0, 0, 0)
    kind, dst = reduce_kind(op), op.dst[0]
    steps = Steps(op, chip)
    rows, cols = extent(op, op.src, 0), extent(op, op.src, 1)
    if isinstance(rows, SSAValue) or rows != _rows_of(scratch):  # the scratch's first rows
        scratch = steps.view(scratch, (0, 0), (rows, 1))
    first = steps.view(op.src, (0, 0), (rows, steps.width(cols, 0, width)), "repeat")
    steps.add(hivm.VReduceOp(hivm.ReduceOpKind(op.arith.data), first, dst, [1]))
    for start in range(width, cols_bound, width):
        chunk = steps.view(op.src, (0, start), (rows, steps.width(cols, start, width)), "repeat")
        steps.add(hivm.VReduceOp(hivm.ReduceOpKind(op.arith.data), chunk, scratch, [1]))
        steps.barrier()  # the fold reads the scratch this step wrote and dst the one before
        steps.add(FOLD[kind](dst, scratch, dst))
        if start + width < cols_bound or not _barrier_follows(op):
            steps.barrier()  # the next step (or a later wide reduction) rewrites the scratch
    Rewriter.erase_op(op)


def lower_column_reduce(op: hivm.VReduceOp, chip: Chip) -> None:
    """Row by row: the first row's one-row column reduction (a copy) into dst, then each
    further row folded into dst, a V barrier before each fold (it reads the dst the step
    before wrote) where the chip does not order V."""
    rows = column_reduce_rows(op) or 0
    kind, dst = reduce_kind(op), op.dst[0]
    steps = Steps(op, chip)
    cols = extent(op, op.src, 1)
    first = steps.view(op.src, (0, 0), (1, cols), "row")
    steps.add(hivm.VReduceOp(hivm.ReduceOpKind(op.arith.data), first, dst, [0]))
    for r in range(1, rows):
        row = steps.view(op.src, (r, 0), (1, cols), "row")
        steps.barrier()
        steps.add(FOLD[kind](dst, row, dst))
    Rewriter.erase_op(op)


def lower_partial_broadcast(op: hivm.VBrcOp, blocks: SSAValue, chip: Chip) -> None:
    """Each source value spread over one 32-byte block of the scratch (vbrcb), then each
    row's block repeated along its row of dst (cce.repeat_blocks), a V barrier between
    them (the copies read the blocks) and after (a later step rewrites the scratch)."""
    bound = static_bound_shape(op.src)
    if bound is None or bound[0] % 8:
        raise op_error(op, f"a dav-c220 broadcast into a partial tile fills its blocks 8 rows a repeat (vbrcb): "
                           f"its source column's rows must be bounded by a multiple of 8 (bound {bound})")
    steps = Steps(op, chip)
    t = blocks.type
    assert isinstance(t, MemRefType)
    filled = steps.view(blocks, (0, 0), (extent(op, op.dst, 0), t.get_shape()[1]), "blocks")
    steps.add(hivm.VBrcOp(op.src, filled, broadcast_dims=[1]))
    steps.barrier()
    steps.add(cce.RepeatBlocksOp(filled, op.dst))
    if not _barrier_follows(op):
        steps.barrier()
    Rewriter.erase_op(op)


def _rows_of(value: SSAValue) -> int:
    t = value.type
    assert isinstance(t, MemRefType)
    return t.get_shape()[0]


def _barrier_follows(op: Operation) -> bool:
    """Whether the op right after `op` is a barrier that orders V (the IR's own)."""
    after = op.next_op
    return isinstance(after, hivm.PipeBarrierOp) and after.pipe.pipe_name in ("V", "ALL")


def _element(op: Operation) -> Any:  # noqa: ANN401 - an xDSL element type
    value = op.src if isinstance(op, hivm.VReduceOp) else cast(hivm.VBrcOp, op).dst
    t = value.type
    assert isinstance(t, MemRefType)
    return t.get_element_type()


class Scratch:
    """The function's scratch at the top of UB, above every planned UB buffer of it: one
    region that the reduction rows and the broadcast blocks share (each lowered op's last
    step is followed by a V barrier, so the next one's first write waits for its reads)."""

    def __init__(self, func_op: func.FuncOp, reduces: list[hivm.VReduceOp], broadcasts: list[hivm.VBrcOp]):
        ops: list[Operation] = [*reduces, *broadcasts]
        kinds = {_element(o) for o in ops}
        if len(kinds) != 1:
            raise op_error(ops[0], "dav-c220 reductions and broadcasts of several element types in one function "
                                   "are not lowered (one scratch per function)")
        self.element = kinds.pop()
        esize = element_bytes(self.element)
        self.rows = max([(wide_reduce_shape(r) or (0,))[0] for r in reduces], default=0)
        self.block_rows = -(-max([partial_broadcast_rows(b) or 0 for b in broadcasts], default=0) // 8) * 8
        size = max(-(-self.rows * esize // 32) * 32, self.block_rows * 32)
        self.func_op, self.first, self.size = func_op, ops[0], size

    def place(self, chip: Chip) -> tuple[SSAValue | None, SSAValue | None]:
        """(reduction rows, broadcast blocks): pointer_casts at the top of UB."""
        start = (chip.capacity["ub"] - self.size) // 32 * 32
        top = ub_high_water(self.func_op)
        if top is None or top > start:
            reach = top if top is not None else "an unbounded address"
            raise op_error(self.first, f"no room for the {self.size}-byte dav-c220 reduction scratch at the top "
                                       f"of UB (the buffers reach {reach})")
        entry = self.func_op.body.blocks[0]
        shapes = [(self.rows, 1, "reduce_scratch"), (self.block_rows, 32 // element_bytes(self.element), "blocks")]
        placed: list[SSAValue | None] = []
        for rows, cols, name in shapes:
            if not rows:
                placed.append(None)
                continue
            offset = arith.ConstantOp(IntegerAttr(start, i64))
            pointer = hivm.PointerCastOp([offset.result], MemRefType(self.element, [rows, cols], NoneAttr(),
                                                                     hivm.address_space("ub")))
            Rewriter.insert_op([offset, pointer], InsertPoint.at_start(entry))
            pointer.results[0].name_hint = name
            placed.append(pointer.results[0])
        return placed[0], placed[1]


def lower_function(func_op: func.FuncOp, chip: Chip) -> None:
    for op in [o for o in func_op.walk() if column_reduce_rows(o) is not None]:
        assert isinstance(op, hivm.VReduceOp)
        lower_column_reduce(op, chip)
    reduces = [o for o in func_op.walk() if isinstance(o, hivm.VReduceOp) and wide_reduce_shape(o) is not None]
    broadcasts = [o for o in func_op.walk() if isinstance(o, hivm.VBrcOp) and partial_broadcast_rows(o) is not None]
    if not reduces and not broadcasts:
        return
    rows, blocks = Scratch(func_op, reduces, broadcasts).place(chip)
    for op in reduces:
        assert rows is not None
        lower_reduce(op, rows, chip)
    for op in broadcasts:
        assert blocks is not None
        lower_partial_broadcast(op, blocks, chip)


@dataclass(frozen=True)
class LowerWideReducePass(ModulePass):
    """dav-c220 reductions of several V instructions (row reductions wider than one
    256-byte repeat, static or runtime width; column reductions of several rows) -> their
    steps, scratch and V barriers in IR (CCE target on the 910B; nothing on other chips)."""

    name = "ascend-lower-wide-reduce"

    chip: str | None = None
    chip_file: str | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        chip = module_chip(op, self.chip, self.chip_file, record=False)
        if chip.arch != ARCH:
            return
        for func_op in [o for o in op.walk() if isinstance(o, func.FuncOp) and not o.is_declaration]:
            lower_function(func_op, chip)
