"""`ascend-plan-memory`: every on-chip `memref.alloc` becomes a `hivm.hir.pointer_cast`.

Per function, each on-chip allocation gets a byte offset in its scope's memory, aligned
per scope as the chip file says (`[alignment]`), and reserves `versions` slots of its
aligned size (`#ascend.buffer<versions = N>` from ascend-modulo-schedule; 1 otherwise):

    %u = memref.alloc() {ascend.buffer = #ascend.buffer<versions = 2>} : memref<512xf32, ub>
      ->
    %c0_i64 = arith.constant 0 : i64
    %c2048_i64 = arith.constant 2048 : i64
    %u = hivm.hir.pointer_cast(%c0_i64, %c2048_i64) : memref<512xf32, ub>

Several addresses are a multi-buffer, as bishengir spells it: version v of the buffer is
at the v-th address (evenly spaced, `offset + v * aligned size`); ascend-multi-buffer
then selects `iv mod versions` inside the loop. A one-address pointer_cast is a plain
buffer. The alloc's `#ascend.buffer<versions = N>` stays on its pointer_cast, so the
schedule can still be read from the planned module (`-t schedule-json`; the npuir
target does not print our attributes).

Space is reused between buffers whose live ranges (first to last use, in top-level
program order of the function, a loop counting as one position) do not overlap; the
planning itself is IR-free (`ascend_mlir.analysis.memory_plan`). It agrees with the
modulo scheduler's capacity constraint: whatever the scheduler accepted (the sum of
`versions * aligned size` per scope within capacity) is placed.

When a scope overflows, the error names every buffer of that scope with its bytes and
versions, and a hint. `memref.dealloc` of a planned buffer is dropped (the plan is
static). Buffers with dynamic shapes cannot be planned: a located error.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import IntegerAttr, MemRefType, ModuleOp, i64
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ascend_mlir.analysis.latency_model import element_bytes
from ascend_mlir.analysis.memory_plan import PlanBuffer, ScopePlan, plan_memory
from ascend_mlir.analysis.views import users_through_views
from ascend_mlir.chips import Chip
from ascend_mlir.diagnostics import op_error
from ascend_mlir.dialects import ascend, hivm
from ascend_mlir.hardware import stored_bytes
from ascend_mlir.transforms.estimate_latency import module_chip

HINT = "hint: lower tile.num_stages (fewer versions) or use smaller tiles"


def _top_level_position(op: Operation, block: Block, index: dict[Operation, int]) -> int:
    while op.parent_block() is not block:
        parent = op.parent_op()
        assert parent is not None
        op = parent
    return index[op]


@dataclass
class _Alloc:
    op: memref.AllocOp
    buffer: PlanBuffer


def _on_chip_allocs(func_op: func.FuncOp, chip: Chip) -> list[_Alloc]:
    block = func_op.body.blocks.first
    assert block is not None
    index = {op: i for i, op in enumerate(block.ops)}
    out = []
    for op in func_op.walk():
        if not isinstance(op, memref.AllocOp):
            continue
        t = op.memref.type
        scope = hivm.scope_of(t)
        if scope in (None, "gm") or not isinstance(t, MemRefType):
            continue
        shape = t.get_shape()
        if any(d < 0 for d in shape):
            raise op_error(op, f"cannot plan a dynamically sized {scope} buffer: on-chip buffers need static shapes")
        size = chip.aligned_size(scope, stored_bytes(scope, shape, element_bytes(t.element_type)))
        # live from the first use to the last (the alloc itself only when never used)
        positions = [_top_level_position(u, block, index) for u in users_through_views(op.memref, with_views=True)]
        positions = positions or [_top_level_position(op, block, index)]
        name = f"%{op.memref.name_hint}" if op.memref.name_hint else f"buffer {len(out)}"
        out.append(_Alloc(op, PlanBuffer(name, scope, size, ascend.versions_of(op), min(positions), max(positions))))
    return out


def _overflow_message(plan: ScopePlan, allocs: list[_Alloc]) -> str:
    parts = []
    for a in allocs:
        b = a.buffer
        if b.scope == plan.scope:
            parts.append(f"{b.name} {b.size} B x {b.versions} version{'s' if b.versions != 1 else ''}")
    return (f"{plan.scope} overflow: the buffers need {plan.end} bytes, capacity {plan.capacity}: "
            f"{', '.join(parts)}; {HINT}")


def _rewrite(alloc: memref.AllocOp, offset: int, buffer: PlanBuffer, rewriter: Rewriter) -> None:
    addresses = [arith.ConstantOp(IntegerAttr(offset + v * buffer.size, i64)) for v in range(buffer.versions)]
    for a in addresses:
        a.result.name_hint = f"c{a.value.value.data}_i64"  # type: ignore[attr-defined]
    cast = hivm.PointerCastOp([a.result for a in addresses], alloc.memref.type)
    cast.result.name_hint = alloc.memref.name_hint
    if ascend.BUFFER in alloc.attributes:
        # the schedule's versions stay readable in the planned module (-t schedule-json)
        cast.attributes[ascend.BUFFER] = alloc.attributes[ascend.BUFFER]
    rewriter.insert_op(addresses, InsertPoint.before(alloc))
    for user in list(alloc.memref.uses):
        if isinstance(user.operation, memref.DeallocOp):
            rewriter.erase_op(user.operation)
    rewriter.replace_op(alloc, cast)


def plan_function(func_op: func.FuncOp, chip: Chip) -> None:
    allocs = _on_chip_allocs(func_op, chip)
    if not allocs:
        return
    plans = plan_memory([a.buffer for a in allocs], chip.capacity, chip.alignment)
    for plan in plans.values():
        if not plan.fits:
            first = next(a.op for a in allocs if a.buffer.scope == plan.scope)
            raise op_error(first, _overflow_message(plan, allocs))
    rewriter = Rewriter()
    for index, a in enumerate(allocs):
        _rewrite(a.op, plans[a.buffer.scope].offsets[index], a.buffer, rewriter)


@dataclass(frozen=True)
class PlanMemoryPass(ModulePass):
    name = "ascend-plan-memory"

    chip: str | None = None
    chip_file: str | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        chip = module_chip(op, self.chip, self.chip_file)
        for func_op in [o for o in op.walk() if isinstance(o, func.FuncOp)]:
            if func_op.body.blocks:
                plan_function(func_op, chip)
