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

Where a scope cannot hold all of its buffers side by side, space is reused between
buffers whose live ranges (first to last use, in top-level program order of the
function, a loop counting as one position) do not overlap; where it can, each buffer
gets bytes of its own, since a reuse orders the later buffer's first write after the
earlier one's last read, a dependence the code would not otherwise have. The planning
itself is IR-free (`ascend_mlir.analysis.memory_plan`). It agrees with the
modulo scheduler's capacity constraint: whatever the scheduler accepted (the sum of
`versions * aligned size` per scope within capacity) is placed.

When a scope overflows, the error names every buffer of that scope with its bytes and
versions, and a hint. Option `reuse=false` gives every buffer bytes of its own (for IR
already synced, whose flags cannot know of a reuse: ascend-compile{target=cce} on synced
input). A split MIX pair (`_mix_aic` / `_mix_aiv`, kernel_layout.shared_allocs) is
planned together: a buffer both cores touch is live throughout the function that owns
it, and the other function's alloc of it gets the same addresses (the CCE printer and the
simulator then see one buffer). `memref.dealloc` of a planned buffer is dropped (the plan is
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

from ascend_mlir.analysis.hardware_checks import require_hivm_level
from ascend_mlir.analysis.kernel_layout import shared_allocs, split_pairs
from ascend_mlir.analysis.latency_model import element_bytes
from ascend_mlir.analysis.memory_plan import PlanBuffer, ScopePlan, plan_memory
from ascend_mlir.analysis.views import users_through_views
from ascend_mlir.chips import Chip, ChipError
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


def _on_chip_allocs(func_op: func.FuncOp, chip: Chip, reuse: bool, shared: _Shared) -> list[_Alloc]:
    block = func_op.body.blocks.first
    assert block is not None
    index = {op: i for i, op in enumerate(block.ops)}
    whole = (0, max(len(index) - 1, 0))  # live for the whole function
    out = []
    for op in func_op.walk():
        if not isinstance(op, memref.AllocOp) or op in shared.aliases:
            continue
        t = op.memref.type
        scope = hivm.scope_of(t)
        if scope in (None, "gm") or not isinstance(t, MemRefType):
            continue
        shape = t.get_shape()
        if any(d < 0 for d in shape):
            raise op_error(op, f"cannot plan a dynamically sized {scope} buffer: on-chip buffers need static shapes")
        try:
            size = chip.aligned_size(scope, stored_bytes(scope, shape, element_bytes(t.element_type)))
        except ChipError as err:  # an element type without a size: located at its buffer
            raise op_error(op, str(err)) from err
        # live from the first use to the last (the alloc itself only when never used)
        positions = [_top_level_position(u, block, index) for u in users_through_views(op.memref, with_views=True)]
        positions = positions or [_top_level_position(op, block, index)]
        first, last = min(positions), max(positions)
        if not reuse or op in shared.owned:  # the other core touches it at times this function does not show
            first, last = whole
        name = f"%{op.memref.name_hint}" if op.memref.name_hint else f"buffer {len(out)}"
        out.append(_Alloc(op, PlanBuffer(name, scope, size, ascend.versions_of(op), first, last)))
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
    # the buffer is still the alloc of its source line (the CCE printer's comment names it)
    for placed in (*addresses, cast):
        placed.location = alloc.location
    if ascend.BUFFER in alloc.attributes:
        # the schedule's versions stay readable in the planned module (-t schedule-json)
        cast.attributes[ascend.BUFFER] = alloc.attributes[ascend.BUFFER]
    rewriter.insert_op(addresses, InsertPoint.before(alloc))
    for user in list(alloc.memref.uses):
        if isinstance(user.operation, memref.DeallocOp):
            rewriter.erase_op(user.operation)
    rewriter.replace_op(alloc, cast)


@dataclass(frozen=True)
class _Shared:
    """The buffers a split MIX pair shares (kernel_layout.shared_allocs): `aliases`, the
    allocs of the other core's memory, take the offset of their partner in `owned`."""

    aliases: frozenset[Operation] = frozenset()
    owned: frozenset[Operation] = frozenset()


def plan_function(func_op: func.FuncOp, chip: Chip, reuse: bool = True,
                  shared: _Shared = _Shared()) -> dict[Operation, tuple[int, PlanBuffer]]:
    """Place the on-chip allocs of `func_op` (all of them overlapping when not `reuse`);
    returns where each went."""
    allocs = _on_chip_allocs(func_op, chip, reuse, shared)
    if not allocs:
        return {}
    plans = plan_memory([a.buffer for a in allocs], chip.capacity, chip.alignment)
    for plan in plans.values():
        if not plan.fits:
            first = next(a.op for a in allocs if a.buffer.scope == plan.scope)
            raise op_error(first, _overflow_message(plan, allocs))
    rewriter = Rewriter()
    placed: dict[Operation, tuple[int, PlanBuffer]] = {}
    for index, a in enumerate(allocs):
        placed[a.op] = (plans[a.buffer.scope].offsets[index], a.buffer)
        _rewrite(a.op, placed[a.op][0], a.buffer, rewriter)
    return placed


def plan_split_pair(aic: func.FuncOp, aiv: func.FuncOp, chip: Chip, reuse: bool) -> None:
    """A `_mix_aic` / `_mix_aiv` pair planned together: each function places its own
    core's buffers, the ones the other core also touches live throughout (this function
    cannot see when the other core uses them), and the other function's alloc of such a
    buffer gets the same addresses (split-mix-kernel run after planning needs none of
    this; a pair split by hand or by another tool does)."""
    alias = shared_allocs(aic, aiv)
    shared = _Shared(frozenset(alias), frozenset(alias.values()))
    placed = plan_function(aic, chip, reuse, shared)
    placed.update(plan_function(aiv, chip, reuse, shared))
    rewriter = Rewriter()
    for mine, theirs in alias.items():
        offset, buffer = placed[theirs]
        assert isinstance(mine, memref.AllocOp)
        _rewrite(mine, offset, buffer, rewriter)


@dataclass(frozen=True)
class PlanMemoryPass(ModulePass):
    """Options: `chip` / `chip_file` (the capacities and alignment), `reuse` (default
    true: buffers whose live ranges do not overlap may share bytes where their scope
    cannot hold them all side by side; false: every buffer gets its own, for IR already
    synced, whose flags cannot know of a reuse)."""

    name = "ascend-plan-memory"

    chip: str | None = None
    chip_file: str | None = None
    reuse: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # a tile-level kernel planned here came out half tile ops, half pointer_casts,
        # which ascend-compile then took as another kernel (1870 cycles for vecadd's 1266)
        require_hivm_level(op, self.name)
        chip = module_chip(op, self.chip, self.chip_file)
        pairs = list(split_pairs(op).values())
        paired = {f for pair in pairs for f in pair}
        for aic, aiv in pairs:
            plan_split_pair(aic, aiv, chip, self.reuse)
        for func_op in [o for o in op.walk() if isinstance(o, func.FuncOp)]:
            if func_op.body.blocks and func_op not in paired:
                plan_function(func_op, chip, self.reuse)
