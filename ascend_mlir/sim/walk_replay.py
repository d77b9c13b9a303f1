"""Building a block's instruction streams without walking its scalar code again.

The scalar walk of a block (hivm_frontend.CoreWalker) depends on the block only through
`hivm.hir.get_block_idx`. `block_dependence` follows that value through the kernel: when
it reaches only arith ops at the top level of the function (run once per walk), memref
views (subview, cast, reshape, bitcast, pointer_cast, reinterpret_cast: anywhere) and the
operands of hivm ops, every other op computes the same values in every block, and the
loops, branches and allocations run the same way. The first block is then walked in full
while `WalkRecorder` notes, per core and in order, the ops that depend on the block (with
their operands and the scalar cost pending before them) and what every other hivm op
issued. A later block (`WalkRecord.replayed`) runs only the noted ops again, through the
same interpreter functions, with the block's own values: a view at the block's offsets,
an hivm op's instructions with their data callbacks on the block's views. The other hivm
ops' instructions are the first block's: they touch only on-chip memory and the views of
GM that do not depend on the block, and the block reuses the first block's on-chip
buffers, cleared (`Buffer.clear`), so their data callbacks read and write what the
block's own would. What a full walk of the block would issue is issued, in the same
order; a walk that would fail (a view out of bounds in this block) fails here too, and
the simulator then walks the block in full to report it at its op.

Perturbed runs draw the latency of every timed hivm op in the walk, one draw per op in
walk order. A later block draws its own in the same order: a timed op that does not
depend on the block keeps the first block's instructions with the latency and ii
redrawn from the op's unperturbed timing (`_Redrawn`: its data, accesses and scalar cost
are the first block's, as in a plain replay; an mmadL1's feed and cube parts are
re-split as `CoreWalker.mmad_op` splits them), the ops that depend on the block run
again and draw as they run (flags, barriers and block queries draw nothing and are
taken from the record).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from xdsl.dialects import memref
from xdsl.dialects.func import FuncOp
from xdsl.interpreter import Interpreter, PythonValues
from xdsl.ir import Operation

from ascend_mlir.dialects import hivm
from ascend_mlir.dialects.hivm.control import BitcastOp
from ascend_mlir.sim.engine import OP, Core, Instr
from ascend_mlir.sim.hivm_frontend import BlockContext, CoreWalker
from ascend_mlir.sim.memory import Ref

# views whose result depends on the block when an operand does (run again per block)
_VIEW_OPS = (memref.SubviewOp, memref.CastOp, memref.CollapseShapeOp, memref.ExpandShapeOp,
             memref.ReinterpretCastOp, BitcastOp, hivm.PointerCastOp)


@dataclass(frozen=True)
class BlockDependence:
    """The SSA values whose value depends on the block (ids) and the ops to run again."""

    values: frozenset[int]
    ops: frozenset[int]


def _depends(op: Operation, values: set[int]) -> bool:
    return any(id(v) in values for v in op.operands)


def _gm_alloc(op: Operation) -> bool:
    """A memref.alloc in GM is shared by the cores and fresh per block: reusing it across
    blocks would make blocks share it (and race on it)."""
    return isinstance(op, memref.AllocOp | memref.AllocaOp) and hivm.scope_of(op.results[0].type) in ("gm", None)


def _follow(op: Operation, entry, values: set[int], ops: set[int]) -> bool:
    """Take `op` (some operand depends on the block) into the dependence; False where the
    dependence would reach what a replayed walk cannot redo (control flow, loads, a
    scalar computed more than once per walk)."""
    if isinstance(op, _VIEW_OPS):
        values.update(id(r) for r in op.results)
    elif op.name.startswith("arith.") and op.parent_block() is entry:
        values.update(id(r) for r in op.results)
    elif not (isinstance(op, hivm.HivmPipeOp) and not op.results):
        return False
    ops.add(id(op))
    return True


def block_dependence(funcs: Iterable[FuncOp]) -> BlockDependence | None:
    """What depends on the block index in `funcs` (the kernel's functions), or None
    when a replayed walk cannot reproduce a full one (see the module docstring)."""
    values: set[int] = set()
    ops: set[int] = set()
    for f in funcs:
        entry = f.body.block
        for op in f.walk():
            if _gm_alloc(op):
                return None
            if isinstance(op, hivm.GetBlockIdxOp):
                if op.parent_block() is not entry:
                    return None
                values.update(id(r) for r in op.results)
                ops.add(id(op))
            elif _depends(op, values) and not _follow(op, entry, values, ops):
                return None
    return BlockDependence(frozenset(values), frozenset(ops))


@dataclass
class _Run:
    """An op to run again in a later block: its operands and results in the first block,
    and the scalar cost pending before it (what its first instruction carries)."""

    op: Operation
    args: PythonValues
    pending: int
    results: PythonValues = ()


@dataclass
class _Issued:
    """What an hivm op that does not depend on the block issued in the first block: its
    instructions and its notes of shared (GM) accesses."""

    instrs: list
    gm_accesses: list


@dataclass
class _Redrawn:
    """A timed hivm op that does not depend on the block, in a perturbed walk: what it
    issued and its unperturbed (latency, ii), which a later block perturbs by its own draw."""

    op: Operation
    issued: _Issued
    timing: tuple[int, int]


@dataclass
class _CoreRecord:
    events: list[_Run | _Issued | _Redrawn] = field(default_factory=list)


class WalkRecorder(Interpreter.Listener):
    """Watches one core's full walk (after `_ScalarSteps`, so the pending scalar cost
    includes the op's own) and notes its events into `record`."""

    def __init__(self, walker: CoreWalker, dependence: BlockDependence, record: _CoreRecord, reissue_all: bool):
        self.walker = walker
        self.dependence = dependence
        self.record = record
        self.reissue_all = reissue_all  # perturbed: every timed hivm op draws its latency in the walk
        self.pending: _Run | tuple[int, int, int] | None = None

    def will_interpret_op(self, op: Operation, args: PythonValues) -> None:
        w = self.walker
        if id(op) in self.dependence.ops:
            self.pending = _Run(op, args, w.pending_scalar)
        elif isinstance(op, hivm.HivmPipeOp):
            self.pending = (len(w.instrs), len(w.ctx.gm_accesses), w.timed)
        else:
            self.pending = None

    def did_interpret_op(self, op: Operation, results: PythonValues) -> None:
        pending = self.pending
        if pending is None:
            return
        self.pending = None
        if isinstance(pending, _Run):
            pending.results = results
            self.record.events.append(pending)
            return
        w = self.walker
        n_instrs, n_gm, timed = pending
        issued = _Issued(w.instrs[n_instrs:], w.ctx.gm_accesses[n_gm:])
        if self.reissue_all and w.timed > timed:
            assert w.timed == timed + 1, f"{op.name} timed more than once"
            self.record.events.append(_Redrawn(op, issued, w.last_timing))
        elif issued.instrs or issued.gm_accesses:
            self.record.events.append(issued)


class WalkRecord:
    """The first block's walk, per core, and what a later block needs to redo of it."""

    def __init__(self, dependence: BlockDependence, perturbed: bool) -> None:
        self.dependence = dependence
        self.perturbed = perturbed
        self.cores: list[_CoreRecord] = []
        self.ctx: BlockContext | None = None

    def listeners(self, walker: CoreWalker) -> tuple[Interpreter.Listener, ...]:
        """For `build_block`: a recorder per core of the walked block."""
        record = _CoreRecord()
        self.cores.append(record)
        return (WalkRecorder(walker, self.dependence, record, self.perturbed),)

    def keep(self, ctx: BlockContext) -> None:
        self.ctx = ctx

    @property
    def ready(self) -> bool:
        return self.ctx is not None and len(self.cores) == len(self.ctx.cores)

    def replayed(self, block: int) -> tuple[BlockContext, list[Core]]:
        """Block `block`'s context and cores, from the record (the first block's on-chip
        buffers cleared for it). Raises what the block's own walk would raise, or an
        internal error where the record cannot say: the caller then walks in full."""
        first = self.ctx
        assert first is not None
        for buf in (*first.allocs.values(), *first.arenas.values()):
            buf.clear()
        ctx = replace(first, block=block, gm_accesses=[], observed_loads={}, assumed_loads={})
        cores = []
        for i, record in enumerate(self.cores):
            walker = CoreWalker(ctx, i)
            _replay_core(walker, record, self.dependence)
            cores.append(Core(walker.spec.name, walker.spec.kind, walker.instrs))
        return ctx, cores


def _replay_core(walker: CoreWalker, record: _CoreRecord, dependence: BlockDependence) -> None:
    interpreter = walker.make_interpreter()
    env = interpreter._env
    scalars: dict[int, Any] = {}  # SSA id -> this block's value (top level: one per walk)
    views: dict[int, Any] = {}  # id of a first-block view -> this block's
    ctx = walker.ctx
    for event in record.events:
        if isinstance(event, _Issued):
            walker.instrs.extend(event.instrs)
            ctx.gm_accesses.extend(event.gm_accesses)
            continue
        if isinstance(event, _Redrawn):
            walker.instrs.extend(_retimed(walker, event))
            ctx.gm_accesses.extend(event.issued.gm_accesses)
            continue
        op = event.op
        args = []
        for v, value in zip(op.operands, event.args):
            if id(v) in dependence.values:
                value = views[id(value)] if isinstance(value, Ref) else scalars[id(v)]
            env[id(v)] = value
            args.append(value)
        walker.pending_scalar = event.pending
        results = interpreter._impls.run(interpreter, op, tuple(args)).values
        for r, before, now in zip(op.results, event.results, results):
            if id(r) in dependence.values:
                if isinstance(before, Ref):
                    views[id(before)] = now
                else:
                    scalars[id(r)] = now


def _retimed(walker: CoreWalker, event: _Redrawn) -> list[Instr]:
    """The op's first-block instructions with this block's draw of its latency and ii
    (copies: the first block's stay as they ran), split as CoreWalker.pipe_op and
    mmad_op split them; its flags are unchanged."""
    op = event.op
    lat, ii = walker.perturbed(*event.timing)
    timed: dict = {id(op): (lat, ii)}
    if isinstance(op, hivm.MmadL1Op | hivm.BatchMmadL1Op):
        feed = walker.feed_latency(op, lat)
        cube = max(1, lat - feed)
        timed = {(id(op), "feed"): (feed, feed), id(op): (cube, max(1, min(ii, cube)))}
    out = []
    for ins in event.issued.instrs:
        new = timed.get(ins.static_id) if ins.kind == OP else None
        if new is not None:
            ins = copy.copy(ins)
            ins.latency, ins.ii = new
        out.append(ins)
    return out
