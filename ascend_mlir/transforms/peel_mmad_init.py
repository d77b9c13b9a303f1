"""`peel-mmad-init`: peel the first K iteration of a matmul whose init is computed.

A K loop accumulates into C and (re)initialises it on its first iteration:
`%first = arith.cmpi eq, %k, %lb` feeds `hivm.hir.mmadL1`'s init operand (or
`tile.matmul`'s `init(...)`: the pass works at the tile and at the hivm level).
bishengir-compile 1.2.0 crashes on such a computed init inside the loop, so the loop
becomes

    <body with %first = true>                  (iteration lb, peeled)
    scf.for %k = lb + step to ub step step {   (%first = false inside)
      <body>
    }

which is correct because step > 0: no later iteration has `%k == lb`. A loop of one
trip becomes its peeled iteration alone (no loop of no trips is left). When the trip
count may be zero, the peeled iteration is guarded by `scf.if lb < ub`. Loop-carried
values (`iter_args`) are threaded through the peeled iteration when the loop is known to
run at least once; otherwise such a loop is a diagnostic.

Option `straight-line` peels only the K loops that then become straight-line code:
those of one trip, and those of two trips, whose second step is inlined after the first
with L1 tiles of its own (copies of the buffers each step writes whole before reading
them, used by nothing after the K loop), where L1 (`l1-capacity`) holds them besides
every buffer of the module. ascend-compile runs it before the scheduler, so that the
tile loop around such a K loop is scheduled as the straight line it becomes, the two
steps' loads and matmuls overlapping where the tile loop's schedule has them overlap;
at the top level of a function, the second step's loads run under the first step's
mmadL1 (ascend-plan-memory gives the copies bytes of their own where L1 holds every
buffer, which the check above ensures).

A computed init of any other form is left alone here; `-t npuir` reports it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, MemRefType, ModuleOp, i1
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from ascend_mlir.analysis.accesses import function_allocs, memref_reads_writes, trip_count
from ascend_mlir.analysis.hardware_checks import byte_size
from ascend_mlir.analysis.views import view_root
from ascend_mlir.diagnostics import op_error
from ascend_mlir.dialects import ascend, hivm, tile


def matmul_init(op: Operation) -> SSAValue | None:
    """The init condition of an mmadL1 or tile.matmul; None for any other op."""
    if isinstance(op, hivm.MmadL1Op):
        return op.init_condition
    if isinstance(op, tile.MatmulOp):
        return op.init
    return None


def int_constant(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def _same_value(a: SSAValue, b: SSAValue) -> bool:
    if a == b:
        return True
    ca, cb = int_constant(a), int_constant(b)
    return ca is not None and ca == cb


def first_iteration_loop(init: SSAValue) -> scf.ForOp | None:
    """The loop L when `init` is `arith.cmpi eq, %iv_L, %lb_L` (either operand order)."""
    cmp = init.owner
    if not isinstance(cmp, arith.CmpiOp) or cmp.predicate.value.data != 0:  # 0 = eq
        return None
    for iv, other in ((cmp.lhs, cmp.rhs), (cmp.rhs, cmp.lhs)):
        if not isinstance(iv, BlockArgument):
            continue
        loop = iv.block.parent_op()
        if isinstance(loop, scf.ForOp) and loop.body.block.args[0] == iv and _same_value(other, loop.lb):
            return loop
    return None


def _first_flag(loop: scf.ForOp) -> SSAValue | None:
    """The `%first` of a matmul init inside `loop` that compares this loop's iv."""
    for op in loop.body.walk():
        init = matmul_init(op)
        if init is not None and int_constant(init) is None and first_iteration_loop(init) is loop:
            return init
    return None


def _body_at_lb(loop: scf.ForOp, mapping: dict[SSAValue, SSAValue], skip: Operation | None = None,
                ) -> tuple[list[Operation], list[SSAValue]]:
    """Clones of the body's ops but `skip` for iteration lb (its iter_args the loop's
    inits, then `mapping`'s values), and what it yields."""
    body = loop.body.block
    mapping = {body.args[0]: loop.lb, **dict(zip(body.args[1:], loop.iter_args, strict=True)), **mapping}
    ops: list[Operation] = []
    yielded: list[SSAValue] = []
    for op in body.ops:
        if isinstance(op, scf.YieldOp):
            yielded = [mapping.get(v, v) for v in op.operands]
        elif op is not skip:
            ops.append(op.clone(value_mapper=mapping))
    return ops, yielded


def _peeled_body(loop: scf.ForOp, first: SSAValue, true: SSAValue) -> tuple[list[Operation], list[SSAValue]]:
    """Clones of the body for iteration lb with `first` = true, and what it yields."""
    ops, yielded = _body_at_lb(loop, {first: true}, cast(Operation, first.owner))
    return [_in_loop_slot(op, loop) for op in ops], yielded


def _in_loop_slot(op: Operation, loop: scf.ForOp) -> Operation:
    """When ascend-compile peels after scheduling, the peeled iteration is not a slot of
    the loop's own modulo schedule but part of the loop as one task of its parent: its
    ops keep their cost (#ascend.task latency and ii) and take the loop's slot there
    (or none when the loop has none)."""
    slot = ascend.task_of(loop)
    for inner in op.walk():
        task = ascend.task_of(inner)
        if task is None or (task.stage is None and task.start is None):
            continue
        if slot is not None and slot.stage is not None and slot.start is not None:
            ascend.set_task(inner, task.latency, task.ii, slot.stage, slot.start)
        else:
            ascend.set_task(inner, task.latency, task.ii)
    return op


def runs_once(loop: scf.ForOp) -> bool:
    """Whether `loop`'s bounds are constants that give it exactly one trip."""
    return trip_count(loop) == 1


def _becomes_straight_line(loop: scf.ForOp, l1_capacity: int) -> bool:
    """Whether `straight-line` peels `loop` (module doc): of one trip, or of two where
    L1 (`l1_capacity` bytes, 0: not checked) holds the second step's tiles besides every
    buffer of the module."""
    count = trip_count(loop)
    if count == 1:
        return True
    if count != 2:
        return False
    module = cast(Operation, loop.get_toplevel_object())  # the function's buffers and any other function's
    return not l1_capacity or _l1_bytes([*function_allocs(module), *_step_local_buffers(loop)]) <= l1_capacity


def _l1_bytes(buffers: list[SSAValue]) -> int:
    """The bytes of the L1 (cbuf) buffers among `buffers` (one version each)."""
    return sum(byte_size(t) or 0 for v in buffers
               if isinstance(t := v.type, MemRefType) and hivm.scope_of(t) == "cbuf")


def _step_local_buffers(loop: scf.ForOp) -> list[SSAValue]:
    """The allocations each step of `loop` writes whole before it reads them (its first
    access to one, through a view or not, writes the buffer itself and reads nothing of
    it) and nothing uses after the loop: no value flows through them from one step to
    the next."""
    block = loop.parent_block()
    if block is None:
        return []
    out: list[SSAValue] = []
    seen: set[SSAValue] = set()
    for op in loop.body.block.walk():
        reads, writes = memref_reads_writes(op)
        for v in (*reads, *writes):
            root = view_root(v)
            if root in seen:
                continue
            seen.add(root)
            whole = v is root and v in writes and not any(view_root(r) is root for r in reads)
            if whole and isinstance(root.owner, memref.AllocOp) and not _used_after(root, loop, block):
                out.append(root)
    return out


def _used_after(value: SSAValue, loop: scf.ForOp, block: Block) -> bool:
    """Whether an op of `block` after `loop` (or anything outside `block`) uses `value`."""
    at = block.get_operation_index(loop)
    for use in value.uses:
        op: Operation | None = use.operation
        while op is not None and op.parent_block() is not block:
            op = op.parent_op()
        if op is None or (op is not loop and block.get_operation_index(op) > at):
            return True
    return False


def _inline_one_trip(loop: scf.ForOp, rewriter: PatternRewriter) -> None:
    """Replace `loop` (one trip) by its body at its lower bound, its step-local buffers
    (`_step_local_buffers`) copied: the step need not wait for the one before."""
    copies: dict[SSAValue, SSAValue] = {}
    for v in _step_local_buffers(loop):
        alloc = cast(Operation, v.owner)
        copy = alloc.clone()
        copy.results[0].name_hint = f"{v.name_hint or 'buffer'}_next"  # buffer names are the loop model's keys
        rewriter.insert(copy, InsertPoint.after(alloc))
        copies[v] = copy.results[0]
    ops, yielded = _body_at_lb(loop, copies)
    rewriter.insert(ops, InsertPoint.before(loop))
    rewriter.replace(loop, [], yielded if loop.iter_args else [])


@dataclass
class PeelFirstIteration(RewritePattern):
    straight_line: bool = False
    l1_capacity: int = 0

    @op_type_rewrite_pattern
    def match_and_rewrite(self, loop: scf.ForOp, rewriter: PatternRewriter) -> None:
        first = _first_flag(loop)
        if first is None or (self.straight_line and not _becomes_straight_line(loop, self.l1_capacity)):
            return
        true = arith.ConstantOp(IntegerAttr(1, i1))
        false = arith.ConstantOp(IntegerAttr(0, i1))
        true.result.name_hint = "true"
        false.result.name_hint = "false"
        rewriter.insert([true, false], InsertPoint.before(loop))
        peeled, yielded = _peeled_body(loop, first, true.result)

        lb, ub, step = loop.lb, loop.ub, loop.step
        lb_value, ub_value, step_value = int_constant(lb), int_constant(ub), int_constant(step)
        runs_at_least_once = lb_value is not None and ub_value is not None and ub_value > lb_value
        if runs_at_least_once:
            rewriter.insert(peeled, InsertPoint.before(loop))
            if runs_once(loop):
                # the peeled iteration is the only one: no loop of no trips is left (its
                # bounds cost the scalar unit, and the function is straight-line code)
                rewriter.erase(false)
                rewriter.replace(loop, [], list(yielded) if loop.iter_args else [])
                return
        elif loop.iter_args:
            raise op_error(
                loop,
                "cannot peel the first iteration of a loop with iter_args and a trip count "
                "that may be zero (needed for the matmul init)",
            )
        else:
            nonempty = arith.CmpiOp(lb, ub, "slt")
            guard = scf.IfOp(nonempty, [], Region(Block([*peeled, scf.YieldOp()])))
            rewriter.insert([nonempty, guard], InsertPoint.before(loop))

        next_lb: Operation = (
            arith.ConstantOp(IntegerAttr(lb_value + step_value, cast(IndexType | IntegerType, lb.type)))
            if lb_value is not None and step_value is not None
            else arith.AddiOp(lb, step)
        )
        rewriter.insert(next_lb, InsertPoint.before(loop))
        inits = yielded if (runs_at_least_once and loop.iter_args) else list(loop.iter_args)
        # every use of %first is inside the loop (it is computed there)
        rewriter.replace_all_uses_with(first, false.result)
        cmp = first.owner
        assert isinstance(cmp, Operation)
        rewriter.erase(cmp)
        new_loop = scf.ForOp(next_lb.results[0], ub, step, inits, rewriter.move_region_contents_to_new_regions(loop.body))
        new_loop.attributes.update(loop.attributes)
        new_loop.location = loop.location  # remarks and errors about the loop name its line
        for new, old in zip(new_loop.results, loop.results, strict=True):
            new.name_hint = old.name_hint
        rewriter.replace(loop, new_loop)
        if self.straight_line:  # a loop of two trips: its second step follows the first
            _inline_one_trip(new_loop, rewriter)


@dataclass(frozen=True)
class PeelMmadInitPass(ModulePass):
    """Peel the first K iteration of every matmul whose init is `iv == lb` of its loop
    (with `straight_line`, of the loops that then become straight-line code alone: of
    one trip, and of two where L1 holds the second step's tiles; ascend-compile peels
    those before the scheduler, which then sees the straight line they become)."""

    name = "peel-mmad-init"

    straight_line: bool = False
    # with `straight_line`: L1's bytes, which a K loop's second step's own tiles must fit
    # in besides the module's buffers (0: not checked)
    l1_capacity: int = 0

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(PeelFirstIteration(self.straight_line, self.l1_capacity),
                             apply_recursively=True).rewrite_module(op)
