"""The block plans of `ascend-insert-sync` and their happens-before model.

A block's plan is its items, the dependences between them (`_Req`: item src on one pipe
before item dst on another, in one pass or `distance` passes later), and the flags and
barriers planned for them (`_Flag`). `_model` turns a plan into the plain-data
`sync_plan.BlockModel` the pass asks whether a dependence is already ordered and whether
a flag can be set twice: each flag keyed `(id(flag), version)`, its wait in pass k
consuming the set of pass k - distance.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field

from xdsl.dialects import scf
from xdsl.ir import Block, Operation

from ascend_mlir.analysis.sync_plan import BlockModel, Turns
from ascend_mlir.analysis.views import loop_bounds
from ascend_mlir.dialects import hivm
from ascend_mlir.transforms.sync_events import core_of, existing_event, op_core, qualified


@dataclass(frozen=True)
class _Req:
    src: int  # item indices in the block
    dst: int
    src_pipe: str
    dst_pipe: str
    distance: int  # 0: within one pass; d >= 1: around the back edge of the block's loop


@dataclass(eq=False)
class _Flag:
    src: int
    dst: int
    set_pipe: str
    wait_pipe: str
    distance: int
    period: int = 1  # ids cycle with the iteration (one per version)
    first_id: int | None = None
    # a loop-carried flag whose primes stand right after this item of the function body
    # (the producer before the loop that its first pass waits for, `_anchor_primes`)
    # instead of at the top of the function
    anchor: tuple[int, Operation] | None = None  # (position in the function body, item)
    pinned: bool = False  # first_id chosen by the block's ring (_Emitter._ring), kept
    # a credit around items src..dst (`_zero_trip_credits`): set before item src, after
    # the waits there, and waited after item dst, before the sets there
    around: bool = False

    @property
    def cross_core(self) -> bool:
        """A sync_block_set/wait pair (counting, so never set twice)."""
        return core_of(self.set_pipe) != core_of(self.wait_pipe)


@dataclass(eq=False)
class _Plan:
    block: Block
    items: list[Operation]
    reqs: set[_Req] = field(default_factory=set)
    flags: list[_Flag] = field(default_factory=list)
    barriers: list[tuple[int, str]] = field(default_factory=list)  # (before item, pipe)
    # for a dependence whose consumer lies inside a nested loop item: the earliest item of
    # that loop's body it touches (see _anchor_primes)
    inner: dict[_Req, int] = field(default_factory=dict)
    # dependences handed over to a loop's primes: (req, the loop's flag), see _anchor_primes
    anchored: list[tuple[_Req, _Flag]] = field(default_factory=list)
    cores: tuple[str, ...] = ("VECTOR",)  # of the function (the first: SCALAR ops' core)
    _pipes: list[frozenset[str]] | None = None
    # the parts of the block's model that planning does not change (see _model)
    _joint: list[bool] | None = None
    _inline: dict[int, Callable[[int], list]] | None = None

    @property
    def item_pipes(self) -> list[frozenset[str]]:
        """The pipes each item occupies (sync ops none), asked by every model of the block."""
        if self._pipes is None:
            self._pipes = [
                _item_pipes(op, self.cores[0]) if not isinstance(op, hivm.SYNC_OPS) else frozenset() for op in self.items
            ]
        return self._pipes


def _is_loop_body(block: Block) -> bool:
    return isinstance(block.parent_op(), scf.ForOp)


def loop_depth(block: Block) -> int:
    """How many `scf.for` loops run `block`'s code."""
    depth, op = 0, block.parent_op()
    while op is not None:
        depth += isinstance(op, scf.ForOp)
        op = op.parent_op()
    return depth


def short_by_depth(ids: list[int | None], depths: list[int]) -> tuple[int, ...]:
    """How many flags found no id at each loop depth, the innermost first (a barrier there
    runs the most often): compared as a tuple."""
    deepest = max(depths, default=0)
    return tuple(sum(first is None and depth == d for first, depth in zip(ids, depths, strict=True))
                 for d in range(deepest, 0, -1))


def held_by_straight_line(flags: list[tuple[_Plan, _Flag]]) -> bool:
    """Whether a flag of code in no loop holds an id of a pair some loop flag is short of
    (a barrier of that code may then free it for the loop: `_Emitter.allocate`)."""
    short = {(f.set_pipe, f.wait_pipe) for plan, f in flags
             if f.first_id is None and not f.cross_core and _is_loop_body(plan.block)}
    return any(f.first_id is not None and (f.set_pipe, f.wait_pipe) in short
               for plan, f in flags if not _is_loop_body(plan.block))


def plans_state(plans: Iterable[_Plan]) -> list[tuple]:
    """What insert-sync's allocation changes in `plans` (their flags, barriers, and each
    flag's points, ids and anchor), for `restore_plans` to take an attempt back."""
    return [(plan, list(plan.flags), list(plan.barriers),
             [(f, f.src, f.dst, f.period, f.anchor, f.first_id, f.pinned) for f in plan.flags]) for plan in plans]


def restore_plans(state: list[tuple]) -> None:
    for plan, flags, barriers, fields in state:
        plan.flags, plan.barriers = flags, barriers
        for f, src, dst, period, anchor, first_id, pinned in fields:
            f.src, f.dst, f.period, f.anchor, f.first_id, f.pinned = src, dst, period, anchor, first_id, pinned


def body_runs(block: Block) -> int | None:
    """How many times the kernel runs `block`'s code: the product of the trip counts of
    the loops around it (None when one is not a constant)."""
    runs, op = 1, block.parent_op()
    while op is not None:
        if isinstance(op, scf.ForOp):
            trips = loop_bounds(op)[1]
            if trips is None:
                return None
            runs *= trips
        op = op.parent_op()
    return runs


def drained_at_end(op: Operation, pipe: str | None = None) -> bool:
    """Whether every op of `op` (an scf.if, as ascend-guard-zero-trip-loops wraps a loop
    and its sync in) completes before anything after it: each branch that does pipe work
    ends it with pipe_barrier[<PIPE_ALL>] (the scalar unit issues nothing more until
    every pipe of the core drained). A branch not taken runs none of the ops, so a
    dependence from the if's own ops is ordered either way (not one from ops before it:
    the empty branch drains nothing). With `pipe` (a pipe name, "MTE3"), whether its ops
    on that pipe complete before a later op of that pipe: each branch's last work on it
    is followed by a pipe_barrier of that pipe there (the guarded loop's stores before the
    remainder loop's, where no pipe_barrier[<PIPE_ALL>] stands between the two loops)."""
    if not isinstance(op, scf.IfOp):
        return False
    for region in op.regions:
        drained = True
        for inner in (o for block in region.blocks for o in block.ops):
            if isinstance(inner, hivm.PipeBarrierOp) and (inner.stalls_issue or inner.pipe.pipe_name == pipe):
                drained = True
            elif any(isinstance(o, hivm.HivmPipeOp) and (pipe is None or (
                    not isinstance(o, hivm.SYNC_OPS) and pipe in o.pipes())) for o in inner.walk()):
                drained = False
        if not drained:
            return False
    return True


def _item_pipes(op: Operation, default_core: str) -> frozenset[str]:
    pipes: set[str] = set()
    for inner in op.walk():
        if isinstance(inner, hivm.HivmPipeOp) and not isinstance(inner, hivm.SYNC_OPS):
            core = op_core(inner, default_core)
            pipes.update(qualified(core, p) for p in inner.pipes())
    return frozenset(pipes)


def _model(plan: _Plan, req: _Req | None = None) -> BlockModel:
    """The block's model with its flags and barriers so far; with `req` (a dependence
    into a loop item), also the anchored primes whose first wait precedes req's consumer
    in the loop (a set after the producer, a wait before the loop item)."""
    if plan._inline is None:
        loop = plan.block.parent_op()
        plan._joint = [isinstance(op, hivm.HivmPipeOp) for op in plan.items]
        plan._inline = {}
        for idx, op in enumerate(plan.items):
            ev = existing_event(op, loop, plan.cores)
            if ev is not None:
                plan._inline[idx] = ev
    model = BlockModel(plan.item_pipes, plan._joint or [], inline=dict(plan._inline))
    for idx, pipe in plan.barriers:
        model.before.setdefault(idx, []).append(lambda copy, p=pipe: ("barrier", p))
    for anchored, flag in plan.anchored:
        if req is None or anchored.dst != req.dst or flag.wait_pipe != req.dst_pipe:
            continue
        if flag.dst <= plan.inner.get(req, -1):
            ev = ("anchor", id(flag))
            model.after.setdefault(anchored.src, []).append(lambda copy, f=flag, k=ev: ("set", f.set_pipe, f.wait_pipe, k))
            model.before.setdefault(anchored.dst, []).append(lambda copy, f=flag, k=ev: ("wait", f.set_pipe, f.wait_pipe, k))
    for flag in plan.flags:
        if flag.around:
            continue
        def key(copy: int, f=flag, shift=0) -> Hashable:
            return (id(f), (copy - shift) % _model_period(f))

        model.after.setdefault(flag.src, []).append(
            lambda copy, f=flag, k=key: ("set", f.set_pipe, f.wait_pipe, k(copy))
        )
        model.before.setdefault(flag.dst, []).append(
            lambda copy, f=flag, k=key: ("wait", f.set_pipe, f.wait_pipe, k(copy, shift=f.distance))
        )
    _model_credits(plan, model)
    return model


def _model_period(f: _Flag) -> int:
    """A flag's key versions in the model: its period; a cross-core flag counts on one id
    primed `distance` times, so pass k's wait consumes pass k - distance's set."""
    return max(f.period, f.distance) if f.cross_core else f.period


def _model_credits(plan: _Plan, model: BlockModel) -> None:
    """Credits around items (`_zero_trip_credits`) where they are emitted (last): the set
    after the waits before its first item, the wait before the sets after its last."""
    for flag in plan.flags:
        if not flag.around:
            continue
        model.before.setdefault(flag.src, []).append(
            lambda copy, f=flag: ("set", f.set_pipe, f.wait_pipe, (id(f), copy % f.period))
        )
        model.after.setdefault(flag.dst, []).insert(
            0, lambda copy, f=flag: ("wait", f.set_pipe, f.wait_pipe, (id(f), copy % f.period))
        )


def primed_versions(distance: int, period: int) -> list[int]:
    """The versions (ids - first id) a loop-carried flag is primed with: those its waits
    in the first `distance` passes take. Pass k sets version k mod period and waits
    version (k - distance) mod period; with distance = period (the consumer's wait comes
    first in the pass) that is every version."""
    if distance % period == 0:
        return list(range(period))
    assert distance < period, (distance, period)
    return [v % period for v in range(-distance, 0)]


def ring_versions(distance: int, period: int, trips: int | None) -> tuple[list[int], list[int]]:
    """(primed, drained) versions of a loop-carried flag over a loop of `trips` passes:
    the drains wait the sets of the last `distance` passes, which a ring of more ids
    than the distance (`distance` < `period`) only knows from the trip count (0 trips:
    the primes)."""
    primed = primed_versions(distance, period)
    if distance % period == 0:
        return primed, primed
    assert trips is not None, "a ring of event ids needs the loop's trip count"
    return primed, [(trips - distance + k) % period for k in range(distance)]


def _carried_key(ev) -> Hashable:
    """The flag a model event belongs to (`_model`'s keys are (id(flag), version))."""
    return ev[3][0] if ev[0] != "barrier" and isinstance(ev[3], tuple) and ev[3] else None


def _turns(plan: _Plan) -> Turns:
    """Which flags of the block take turns (`sync_plan.Turns` over the block's model)."""
    nested = {idx for idx, op in enumerate(plan.items) if op.regions}
    return Turns(_model(plan), plan.flags, _is_loop_body(plan.block), nested)
