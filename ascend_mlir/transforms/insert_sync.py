"""`ascend-insert-sync`: flags and pipe barriers for exactly the dependences that need them.

The fast sync (sync=solver of ascend-compile); `ascend-insert-barrier-sync` is the
baseline. On any hivm IR (straight-line code, `scf.for` / `scf.if`, buffers that cycle
through versions `iv mod k`, planned `pointer_cast`s):

1. **Dependences.** Every pair of memory accesses of one core that may touch the same
   bytes (`ascend_mlir.analysis.aliasing`), one of them a write, is a dependence: in
   program order within one pass over their common block, and around the back edge of
   each common `scf.for` at the smallest iteration distance `d` at which the footprints
   overlap (a buffer in version `iv mod 2` is reused at d = 2). Accesses inside a nested
   loop count over all its iterations (footprints widened). `sync_requirements` finds them.
2. **Same pipe** (the same-pipe rule): none on S, none between two mmadL1; otherwise
   `pipe_barrier[P]` before the later op.
3. **Cross pipe**: `set_flag[P, Q]` after the producer, `wait_flag[P, Q]` before the
   consumer, both in the block where the dependence lives (a nested loop or if is one
   item there). A loop-carried flag is set in iteration i and waited in iteration i + d:
   it is primed (set) before the loop and drained (waited) after it; with d > 1 it uses
   one event id per version, `EVENT = base + iteration mod d` (a dynamic i64 id), which is
   what lets iterations overlap. A carried dependence whose producer comes first in the
   body (a pipelined loop's store of tile i - 1 before the vmul of tile i, whose next
   pass writes the version the store reads) is set before it is waited in every pass:
   it takes d + 1 ids (pass k sets id k, waits id k - d), d primes, and drains the ids
   of the last d passes, which the trip count gives (where nothing orders the next set
   of an id after its wait, up to two more ids; a loop without a known count, or a ring
   that no such ids order, waits in its own pass instead, which orders every later pass
   too). Dependences are taken shortest first and skipped when
   the flags and barriers already placed (or already in the input: the pass is
   idempotent) order them transitively (`ascend_mlir.analysis.sync_plan`).
4. **No flag set twice.** In a loop, the pipe that sets a flag may run ahead of the pipe
   that waits for it; a flag whose next set is not ordered after its last wait gets a
   ring of ids, one per version of the loop and up to two more (at most 4), the fewest
   that order it, else a credit flag in the other direction (none where the block runs
   no more times than the flag has ids: a loop of one trip). A credit's set stands
   after the consumer and drains its pipe every pass.
5. **Event ids** per pipe pair within the chip's `events_per_pipe_pair` (8 on the chips
   we know; options `chip` / `chip-file` as for every pass) (`ascend_mlir.analysis.event_ids`):
   flags inside one outermost loop get distinct ids, and so do the flags of the
   function's straight-line code; ids are reused between outermost loops, which a
   pipe_barrier[PIPE_ALL] between them makes safe (else the setting pipe could run
   ahead of the earlier wait), and between the two branches of an `if`, which no run
   takes both of (a runtime trip count's pipelined loop and its fallback). A later
   item's ids of a pair move, all by one shift, onto ids no flag outside it uses where
   there are such (`_apart_from_other_items`: a remainder loop need not wait behind its
   unrolled loop's every pipe), and a barrier whose reuses the flags already order
   goes (ascend-verify-sync passes without it: `_drop_needless_region_barriers`). A flag of
   straight-line code shares a loop's ids where happens-before proves it done before the
   loop starts or set only after the loop's work on its wait pipe (`Turns.apart`), and
   only there: the pipe that sets it after a loop may run ahead of the loop's last waits.
   A loop's flag primed after an item of the function body (its first wait then stands
   for that item's work) shares the ids of the loops up to that item, its primes moved
   right before its loop behind the pipe_barrier[PIPE_ALL] the shared ids put there.
   Where a loop's flag finds none, the loops' flags choose first if fewer then go
   without. **When the ids run out** in a block (or in a loop body would, each flag
   holding its own ids over the loop, as the replay counts), its sets of that pipe gather at the
   fewest points (each flag of the pass then asked again whether one id orders it there,
   and flags of one point and ids merged); if still short in a loop body, the pair's carried flags merge, the
   closest sets first, as far as that frees the ids (`event_ids.merge_carried`), then
   the pair's flags of one pass take turns on the ids by lifetime (interval colouring over the pass, merging
   flags only where more are live at once than there are ids), and a flag back (wait
   pipe -> set pipe) orders each reuse nothing orders yet (the fewest such flags,
   `analysis.event_ids`); where those flags back find their own pair's ids held by its
   carried flags, these merge too. A function-body flag set right after a loop takes an id of the
   loop's behind a flag back after it (`_credits_after_loops`). Only where that does not fit
   does the flag become a `pipe_barrier[<PIPE_ALL>]` before the consumer (always correct,
   slower), with a remark naming the block and the ids it needed; in code in no loop the
   barrier also orders the block's flags set before it and waited after it, which go,
   and a flag into a loop takes its barrier first: right before the loop, it lets the
   flags before it share the loop's ids (`_straight_line_barriers`). Once the code
   stands, such a barrier's flags are tried again one id at a time, and the barrier goes
   where ascend-verify-sync passes the function with them (`sync_fallbacks`: the
   allocation's `Turns.apart` sees a loop only as a whole, not that the loop's first set
   of an id waits behind the prologue's use of it); the remark stays with the barriers
   that stay.
6. A final `pipe_barrier[<PIPE_ALL>]` drains the kernel before it returns.
7. **Barriers where they run faster.** A loop marked `ascend.barrier_sync` (by
   ascend-modulo-schedule), and a function of straight-line code of one core whose code
   replays faster so (`scheduling/realize.py`, marked here), have each hand-off within a
   core as a `pipe_barrier[<PIPE_ALL>]` before the consumer: where one op runs at a time,
   a barrier costs one cycle and a set / wait pair two.

MIX functions (cube and vector ops in one function): pipes are told apart by core, a
dependence between the cores gets `sync_block_set[<core>, P, Q]` after the producer and
`sync_block_wait[<other core>, P, Q]` before the consumer, placed like a flag. Cross-core
flags count, so a loop-carried one is primed with `d` sets of one flag id. Their ids (16
per direction: a set raises a counter of the other core, a wait reads one of its own)
are reused by lifetime (a flag of the function body lives from its producer to its
consumer, one inside a loop over its whole top-level item), fresh ids first; two users of
one id get a pipe_barrier[<PIPE_ALL>] between them, after which the earlier user's sets
have completed and its waits have consumed them, so the counter never mixes the two.
More than 16 live at once in one direction is an error naming the other sync pass
(ascend-compile then falls back to it, with a remark).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint

from ascend_mlir import hardware
from ascend_mlir.analysis.event_ids import EventRequest, Lifetime, allocate_events, credits, ring_edges, ring_ids
from ascend_mlir.analysis.sync_plan import (
    Turns,
    set_after_wait,
)
from ascend_mlir.analysis.views import loop_bounds
from ascend_mlir.analysis.hardware_checks import require_hivm_level
from ascend_mlir.diagnostics import OpError, emit_remark
from ascend_mlir.dialects import ascend, hivm
from ascend_mlir.transforms.estimate_latency import module_chip
from ascend_mlir.transforms.flag_placement import barrier_all_between, hoist_prime, sink_drain
from ascend_mlir.transforms.sync_blocks import (
    _carried_key,
    _Flag,
    ring_versions,
    _is_loop_body,
    held_by_straight_line,
    loop_depth,
    plans_state,
    restore_plans,
    short_by_depth,
    _model,
    _Plan,
    _turns,
)
from ascend_mlir.transforms.sync_planning import (
    _plan_block,
    _fewer_ids_where_ordered,
    _gather_sets,
    _no_double_set,
    merge_short_carried,
    serial_runs_faster,
    short_as_replayed,
)
from ascend_mlir.transforms.sync_requirements import _Planner
from ascend_mlir.transforms.sync_fallbacks import Fallback, HandOff, flag_fallbacks
from ascend_mlir.transforms.verify_sync import verify_functions
from ascend_mlir.transforms.sync_events import (
    block_name,
    block_depth,
    core_of,
    emit_block_flag,
    id_ranges,
    needed_ids,
    short_pairs,
    op_core,
    other_core,
    pipe_of,
    qualified,
    version_event,
)


class CrossCoreFlagsExhausted(OpError):
    """More cube <-> vector hand-offs than the hardware has cross-core flags: unlike events
    within a core, these have no barrier to fall back on inside this pass."""


# ----------------------------------------------------------------------------- emitting


def _short_in_loop_bodies(flags: list[tuple[_Plan, _Flag]]) -> int:
    """How many flags of loop bodies found no event id (each a barrier in every pass)."""
    return sum(f.first_id is None and not f.cross_core and _is_loop_body(plan.block) for plan, f in flags)


@dataclass
class _Short:
    """A straight-line flag that found no event id: the barrier before item `at` of
    `plan` stands for it and for the `flags` set before and waited after it."""

    plan: _Plan
    at: int
    remark: tuple[Operation, str]
    flags: list[_Flag]

    def hand_offs(self) -> list[HandOff]:
        """The flags as `sync_fallbacks` replaces them: none where one is not a plain
        set-then-wait pair of one pass (the barrier then stays)."""
        if any(f.distance or f.period != 1 or f.around or f.anchor is not None or f.cross_core for f in self.flags):
            return []
        return [HandOff(self.plan.items[f.src], self.plan.items[f.dst], pipe_of(f.set_pipe), pipe_of(f.wait_pipe),
                        (f.set_pipe, f.wait_pipe)) for f in sorted(self.flags, key=lambda f: (f.src, f.dst))]


class _Emitter:
    def __init__(self, planner: _Planner, events_per_pipe_pair: int):
        self.planner = planner
        self.events_per_pipe_pair = events_per_pipe_pair  # the chip's (at most the hardware's)
        self.block_spans: list[tuple[_Plan, _Flag, tuple[int, int]]] = []  # cross-core flags' lifetimes
        self.positions: dict[Operation, tuple[int, int]] = {}
        self.needed: dict[tuple, int] = {}  # (block, set pipe, wait pipe) -> ids it needs, when short
        self.reserved: dict[Hashable, set[int]] = {}  # ids of sync ops in the input, per pair
        # the remarks of straight-line flags that became barriers (`_straight_line_barriers`),
        # emitted once `allocate` is done: a retry it takes back takes its remarks back
        self.remarks: list[_Short] = []
        # the sets that prime loop-carried flags and the waits that drain them
        self.primes: list[hivm.SetFlagOp] = []
        self.drains: list[hivm.WaitFlagOp] = []
        # anchored flags whose primes stand right before their loop (`_primes_after_earlier_ids`)
        self.late_primes: set[int] = set()
        self.set_keys: dict[Operation, bool] = {}
        # the pipe_barrier[<PIPE_ALL>]s between top-level items that share ids (`_region_barriers`)
        self.region_barriers: list[hivm.PipeBarrierOp] = []
        # each flag's first id as allocated, before `_apart_from_other_items` moved it
        self.allocated_ids: dict[int, int | None] = {}
        counter = 0
        for op in planner.func_op.walk():
            counter += 2
            self.positions[op] = (counter, counter)
        for op in reversed(list(planner.func_op.walk())):
            start, end = self.positions[op]
            for region in op.regions:
                for block in region.blocks:
                    for inner in block.ops:
                        end = max(end, self.positions[inner][1])
            self.positions[op] = (start, end)

    def region_of(self, block: Block) -> tuple[int, int]:
        """The extent of the outermost loop a block lies in: a flag inside a loop holds its
        ids over all of it. (-1, -1) for a block in no loop (the function body, a branch
        of an `if` in it): its flags live from their set or wait on (`_interval`)."""
        loop = self._loop_of(block)
        return self.positions[loop] if loop is not None else (-1, -1)

    def top_region_of(self, block: Block) -> tuple[int, int]:
        """The top-level item (of the function body) a block lies in: its extent."""
        top = self._top_item(block)
        return self.positions[top] if top is not None else (-1, -1)

    def _loop_of(self, block: Block) -> Operation | None:
        """The outermost `scf.for` around `block`, if any. Two loops in one top-level
        item (a runtime trip count's pipelined loop and its fallback, in the two branches
        of an `if`) are apart: their ids may be the same (`_region_barriers`)."""
        outer, op = None, block.parent_op()
        while op is not None and op is not self.planner.func_op:
            if isinstance(op, scf.ForOp):
                outer = op
            op = op.parent_op()
        return outer

    def _interval(self, plan: _Plan, f: _Flag) -> tuple[int, int]:
        """Where flag `f` holds its ids: a loop's over the outermost loop; a primed one from
        the function's start (anchored inside a top-level item: from that item's start);
        one of the function body over the whole body (a later flag's set could run before
        its wait, and its set pipe may leave a loop before the loop's last waits: unseen
        seed 732, 3 ids per pair, set V -> MTE3 id 0 after its loop before MTE3 waited
        the loop's last set of it), unless `apart` proves otherwise
        (`_sharing`); one of a branch of an `if` in no loop over the whole branch (the
        same), to the end of its top-level item (beyond it, `_region_barriers` orders them)."""
        lo, hi = self.region_of(plan.block)
        if f.anchor is not None:
            # primed before the loop, after the anchor: one of the function body holds
            # its ids from the start (`_before_anchored_prime` says when not); one inside
            # a top-level item from that item's start, which `_region_barriers` puts a
            # pipe_barrier[<PIPE_ALL>] before where an earlier item's flags share its ids
            # (narrow seed 194 on three_ids: the remainder loop's, inside the `if` after
            # the unrolled main loop, held a V -> MTE2 id over the main loop, whose sets
            # then gathered as the replay did not: written 1683 a pass, ran 1845)
            block = f.anchor[1].parent_block()
            top = self._top_item(block) if block is not None else None
            return (0 if top is None else self.positions[top][0]), hi
        if lo < 0:
            top = self._top(plan)
            lo = 0 if top is None else self.positions[plan.items[0]][0]
            hi = self.positions[top if top is not None else self.planner.func_op][1]
        return lo, hi

    def _request(self, plan: _Plan, f: _Flag) -> EventRequest:
        """`f`'s request for ids over `_interval`; a flag of the function body chooses in
        the order of its first use, after the loops before it."""
        lo, hi = self._interval(plan, f)
        body = f.anchor is None and plan.block is self.planner.body
        return EventRequest((f.set_pipe, f.wait_pipe), lo, hi, f.period, self._first_use(plan, f) if body else None)

    def _first_use(self, plan: _Plan, f: _Flag) -> int:
        """The position of `f`'s set or wait, whichever comes first."""
        return min(self.positions[plan.items[f.src]][0], self.positions[plan.items[f.dst]][0])

    def _exclusive(self, a: Block, b: Block) -> bool:
        """Whether no run takes both blocks: they lie in the two branches of one `if`."""
        inside_a: dict[Operation, Region | None] = {}
        region, op = a.parent_region(), a.parent_op()
        while op is not None:
            inside_a[op] = region
            region, op = op.parent_region(), op.parent_op()
        region, op = b.parent_region(), b.parent_op()
        while op is not None:
            if op in inside_a:
                return isinstance(op, scf.IfOp) and inside_a[op] is not region
            region, op = op.parent_region(), op.parent_op()
        return False

    def _item_in(self, plan: _Plan, block: Block) -> int | None:
        """The index of the item of `plan`'s block that `block` lies in (None if outside)."""
        op = block.parent_op()
        while op is not None and op.parent_block() is not plan.block:
            op = op.parent_op()
        return None if op is None else self.planner.position.get(op)

    def allocate(self) -> list[tuple[_Plan, _Flag]]:
        """Event ids for every flag. When a block has more flags of a pipe pair live at
        once than the chip has ids, its sets of that pipe first gather at the fewest
        points (fewer drains of the pipe; consumers may then wait a little); if still
        short, a loop body's carried flags merge (`merge_short_carried`) and its flags of
        one pass take turns on the ids by lifetime (`_ring`), and
        only where that does not fit does a barrier stand in."""
        flags = self._assign()
        short = short_pairs(flags)
        for block, pairs in short_as_replayed(self.planner.plans, self.events_per_pipe_pair).items():
            known = short.setdefault(block, [])
            known += [pair for pair in pairs if pair not in known]
        if not short:
            return flags
        for block, pipes in short.items():
            plan = self.planner.plans[block]
            _gather_sets(plan, frozenset(p for p, _ in pipes))
            if _is_loop_body(block):
                _fewer_ids_where_ordered(plan)
                _no_double_set(plan)
        flags = self._assign()
        if merge_short_carried(self.planner.plans, flags):
            flags = self._assign()
        ringed = self._rings(flags) if short_pairs(flags) else None
        if ringed is not None and short_pairs(ringed) and merge_short_carried(self.planner.plans, ringed):
            # a ring's credit flags (wait pipe -> set pipe) found the ids of their pair held
            # by its carried flags, which merge as far as that frees them (random wide
            # kernels 13 and 23: MTE2 -> V's ring needed two V -> MTE2 credits where the
            # 8 carried V -> MTE2 flags held all 8 ids, and a pipe_barrier stood in); a
            # merged flag orders all that its flags did, so the rings' turns stay ordered
            ringed = self._assign()
        if ringed is not None and not short_pairs(ringed):
            return ringed
        flags = ringed or self._assign()
        flags = self._credits_after_loops(flags) or flags
        self.needed = needed_ids(flags)
        flags = self._straight_line_barriers(flags)
        if held_by_straight_line(flags) and any(plan.barriers for plan, _ in flags if not _is_loop_body(plan.block)):
            # a barrier of straight-line code orders the flags of the code before it
            # against a loop after it, which may free ids for the loop's ring (unseen seed
            # 834 on four_ids: the prologue's MTE2 -> V flag kept id 2 over the loop until
            # the prologue's V -> MTE3 flags went to a pipe_barrier[<PIPE_ALL>]; the
            # loop's ring, one id short, put a barrier in every pass: written 711, ran 890);
            # taken only where no loop is left short, its carried flags merged first where
            # the ring's credits are short (three_ids seed 195: a ring so merged that left
            # one loop flag of two short moved its barrier where it cost 12% more)
            remarks, state = len(self.remarks), plans_state(self.planner.plans.values())
            ringed = self._rings(flags, every_loop=True)
            if ringed is not None:
                needed, self.needed = self.needed, needed_ids(ringed)
                again = self._straight_line_barriers(ringed)
                if not _short_in_loop_bodies(again):
                    return again
                self.needed = needed
            del self.remarks[remarks:]  # the attempt's, taken back with it
            restore_plans(state)
        return flags

    def _straight_line_barriers(self, flags: list[tuple[_Plan, _Flag]]) -> list[tuple[_Plan, _Flag]]:
        """A flag of code in no loop still short of an id becomes a pipe_barrier[<PIPE_ALL>]
        (of its core) before its consumer: a flag into a loop first, then the earliest. The
        barrier orders every flag of its block set before it and waited after it too: those
        go, and the ids are assigned again. One barrier per short flag made the stores of
        four_ids seed 718's epilogue (15 V -> MTE3 flags, 4 ids) wait for each other: 10433
        cycles at 2 trips, program order 8703. A flag into a loop first: its barrier, right
        before the loop, also orders the flags of the code before it against the loop's
        (`Turns.apart`), which may then share the ids the loop holds (10 chains of 11 ops
        on 2x128 tiles, 3 trips, on the 950: the loop held all 8 V -> MTE3 ids and the
        prologue's hand-offs took 8 barriers, earliest first; 4898 cycles against program
        order's 4498, which the replay, seeing flags, put at 4496 against 4168. Now 1
        barrier and 4366 cycles)."""
        while short := [(plan, f) for plan, f in flags if f.first_id is None and not f.cross_core
                        and self.region_of(plan.block)[0] < 0]:
            plan, f = min(short, key=lambda pf: (not isinstance(pf[0].items[pf[1].dst], scf.ForOp), pf[1].dst))
            at, core = f.dst, core_of(f.wait_pipe)
            plan.barriers.append((at, f"ALL:{core}:"))
            ordered = [g for g in plan.flags if g is not f and (
                g.src < at <= g.dst and not g.distance and not g.cross_core and not g.around and g.anchor is None
                and core_of(g.set_pipe) == core)]
            self.remarks.append(_Short(plan, at, self._remark_short(plan, f), [f, *ordered]))
            plan.flags = [g for g in plan.flags if g is not f and g not in ordered]
            flags = self._assign()
        return flags

    def _credits_after_loops(self, flags: list[tuple[_Plan, _Flag]]) -> list[tuple[_Plan, _Flag]] | None:
        """A flag of the function body whose producer is a top-level loop is set right after
        it and holds its id over the whole loop (its set pipe may leave the loop before the
        wait pipe has waited the loop's own flags of the pair). Where that leaves it without
        an id, a flag back (wait pipe -> set pipe) right after the loop, waited before the
        next item, after which the set stands: it follows all of the loop's work on the wait
        pipe, so the loop's flags of the pair (none carried: their drains stand after it) may
        take the id. The ids again, or None where no fewer flags go without one (unchanged)."""
        body = self.planner.plans.get(self.planner.body)
        moved = [f for plan, f in flags if plan is body and self._set_after_loop(plan, f)]
        if body is None or not moved:
            return None
        short = sum(f.first_id is None for _, f in flags)
        credits: dict[tuple[int, str, str], _Flag] = {}
        for f in moved:
            credits.setdefault((f.src, f.wait_pipe, f.set_pipe), _Flag(f.src, f.src + 1, f.wait_pipe, f.set_pipe, 0))
            f.src += 1
        body.flags += credits.values()
        ringed = self._assign()
        if sum(f.first_id is None for _, f in ringed) < short:
            return ringed
        for f in moved:
            f.src -= 1
        body.flags = [f for f in body.flags if all(f is not c for c in credits.values())]
        self._assign()
        return None

    def _set_after_loop(self, plan: _Plan, f: _Flag) -> bool:
        """`f` (of the function body, without an id) is set right after a top-level loop
        with no carried flag of its pair, and the next item, before its consumer, is no
        pipe op or region (whose work the flag back would hold up behind the loop's)."""
        if f.first_id is not None or f.cross_core or f.around or f.anchor is not None or f.distance:
            return False
        loop, after = plan.items[f.src], plan.items[min(f.src + 1, f.dst)]
        if not isinstance(loop, scf.ForOp) or f.dst <= f.src + 1 or after.regions or after.name.startswith("hivm."):
            return False
        region = self.positions[loop]
        return not any(g.distance and (g.set_pipe, g.wait_pipe) == (f.set_pipe, f.wait_pipe)
                       for other in self.planner.plans.values() if self.region_of(other.block) == region
                       for g in other.flags)

    def _rings(self, flags: list[tuple[_Plan, _Flag]], every_loop: bool = False) -> list[tuple[_Plan, _Flag]] | None:
        """Every short pair of a loop body in a ring (`_ring`) and the ids then, or None
        with the flags as they were when one does not fit or no fewer of the loops' flags
        go without an id (`every_loop`: when any does). Only the loops' pairs: a flag of
        straight-line code short of an id because a loop's flags hold them all may find
        one once they take turns (unseen seed 11: the function body's V -> MTE3 flag
        across the loop, short while the loop's six needed 9 ids, kept the loop's ring
        from being tried, and a pipe_barrier[<PIPE_ALL>] stood in every pass). With
        `every_loop`, the carried flags merge first where the ring's credits are short
        (`allocate` merges them once a ring helped)."""
        saved = plans_state(self.planner.plans.values())
        in_loops = [(block, pair) for block, pairs in short_pairs(flags).items() if _is_loop_body(block)
                    for pair in pairs]
        short = _short_in_loop_bodies(flags)  # before the rings change the flags
        if in_loops and all(self._ring(self.planner.plans[block], pair) for block, pair in in_loops):
            ringed = self._assign()
            if every_loop and short_pairs(ringed) and merge_short_carried(self.planner.plans, ringed):
                ringed = self._assign()  # as `allocate` does after a ring that helped
            left = _short_in_loop_bodies(ringed)
            if left < short and not (every_loop and left):
                return ringed
        restore_plans(saved)
        return None

    def _ring(self, plan: _Plan, pair: tuple[str, str]) -> bool:
        """The flags of `pair` that a loop body sets and waits in one pass take turns on
        the ids the pair has free there, by lifetime (`event_ids.ring_ids`: interval
        colouring, merging flags only where more are live at once than there are ids),
        and where nothing orders a flag's wait before the next set of its id (this pass or
        the next), a flag back (wait pipe -> set pipe) does, placed by `event_ids.credits`
        (the fewest that cover every reuse). False when it does not fit."""
        ring = [f for f in plan.flags if (f.set_pipe, f.wait_pipe) == pair and f.distance == 0 and f.anchor is None
                and not f.cross_core and not f.around and f.src < f.dst]
        free = self._free_ids(plan, pair, ring)
        found = ring_ids([Lifetime(f.src, f.dst) for f in ring], len(free)) if _is_loop_body(plan.block) else None
        if not found:
            return False
        groups, ids_of = found
        kept = [ring[group[0]] for group in groups]
        for f, group, v in zip(kept, groups, ids_of, strict=True):
            f.src, f.dst = max(ring[i].src for i in group), min(ring[i].dst for i in group)
            f.period, f.first_id, f.pinned = 1, free[v], True
        merged = {id(ring[i]) for group in groups for i in group[1:]}
        plan.flags = [f for f in plan.flags if id(f) not in merged]
        turns = _turns(plan)
        needs = [(kept[a].dst, kept[b].src, wrap) for a, b, wrap in ring_edges(ids_of)
                 if not (turns.before(kept[a], kept[b], 0, wrap) and (wrap or turns.before(kept[a], kept[b], 1, 1)))]
        back = [_Flag(x, y, pair[1], pair[0], distance, 1) for x, y, distance in credits(needs, len(plan.items))]
        plan.flags += back
        model = _model(plan)
        return all(set_after_wait(model, _carried_key, id(f), 1) for f in back)

    def _free_ids(self, plan: _Plan, pair: tuple[str, str], ring: list[_Flag]) -> list[int]:
        """The ids of `pair` a ring in `plan`'s block (a loop body) may take, highest
        first: none reserved by sync ops in the input, none held by a flag of the pair in
        the same outermost loop, minus as many as the pair's other flags of the block
        still need (they take the lowest). The flags of code in no loop hold none: they
        run once, the loop's every pass, and are assigned again after the rings (the
        loops' pinned), taking another id or a barrier (unseen seed 214 on four_ids: the
        prologue's V -> MTE3 flags held ids 0-2 here and went to barriers anyway, short
        of ids, while the loop's six flags shared id 3 behind a credit after each store:
        written 1996, ran 2809)."""
        busy = set(self.reserved.get(pair, ()))
        region = self.region_of(plan.block)
        need = 0
        for other in self.planner.plans.values():
            if self._exclusive(other.block, plan.block) or self.region_of(other.block) != region:
                continue
            for f in other.flags:
                if (f.set_pipe, f.wait_pipe) != pair or f in ring:
                    continue
                if f.first_id is None:
                    need += f.period if other is plan else 0
                else:
                    busy.update(range(f.first_id, f.first_id + f.period))
        free = [v for v in reversed(range(self.events_per_pipe_pair)) if v not in busy]
        return free[: max(0, len(free) - need)]

    def _assign(self) -> list[tuple[_Plan, _Flag]]:
        flags = [(plan, f) for plan in self.planner.plans.values() for f in plan.flags]
        events = [(plan, f) for plan, f in flags if not f.cross_core]
        reserved: dict[Hashable, set[int]] = {}
        for op in self.planner.func_op.walk():
            if isinstance(op, hivm.SetFlagOp | hivm.WaitFlagOp) and op.event_id is not None:
                core = op_core(op, self.planner.default_core)
                pair = (qualified(core, op.set_pipe.pipe_name), qualified(core, op.wait_pipe.pipe_name))
                reserved.setdefault(pair, set()).add(op.event_id)
            if isinstance(op, hivm.SyncBlockSetOp | hivm.SyncBlockWaitOp) and op.flag_id is not None:
                reserved.setdefault("block", set()).add(op.flag_id)
        requests = [self._request(plan, f) for plan, f in events]
        shares = self._sharing([f for _, f in events], [plan for plan, _ in events])
        fixed = {k: f.first_id for k, (_, f) in enumerate(events) if f.pinned and f.first_id is not None}
        self.reserved = reserved
        ids = allocate_events(requests, self.events_per_pipe_pair, reserved, shares=shares, fixed=fixed)
        depths = [loop_depth(plan.block) for plan, _ in events]
        if any(first is None and depth for first, depth in zip(ids, depths, strict=True)):
            # a loop's flag without an id becomes a barrier in every pass: the loops'
            # flags choose first where that leaves fewer of them without one (unseen
            # seed 13 on a chip of 4 ids per pair: the prologue's flags held 3 of them),
            # the innermost first (unseen_cube seed 26 on slow_cube.toml, 5 ids: the
            # straight-line flags of the branch around a pipelined key loop held 2 of
            # the M -> FIX ids over the query loop, and a barrier stood in every key pass)
            for rank in ([0 if depth else 1 for depth in depths], [-depth for depth in depths]):
                first_loops = allocate_events(requests, self.events_per_pipe_pair, reserved, shares=shares,
                                              fixed=fixed, rank=rank)
                if short_by_depth(first_loops, depths) < short_by_depth(ids, depths):
                    ids = first_loops
        for (_, f), first in zip(events, ids, strict=True):
            f.first_id = first
        self._allocate_cross_core([(plan, f) for plan, f in flags if f.cross_core], reserved)
        return flags

    def _sharing(self, flags: list[_Flag], plans: list[_Plan]):
        """`shares(i, j)` for allocate_events: whether flags i and j may hold one id
        although both are live (`sync_plan.Turns`): two flags of one block that take turns, or a
        flag of the function body done with the id before a top-level loop starts (or
        setting it only after the loop) and a flag inside that loop."""
        turns: dict[Block, Turns] = {}

        def turns_of(plan: _Plan) -> Turns:
            if plan.block not in turns:
                turns[plan.block] = _turns(plan)
            return turns[plan.block]

        def shares(i: int, j: int) -> bool:
            a, b = flags[i], flags[j]
            if a.around or b.around:
                return False
            if plans[i] is plans[j]:
                return Turns.eligible(a) and Turns.eligible(b) and turns_of(plans[i]).take_turns(a, b)
            if a.anchor is not None or b.anchor is not None:
                return self._before_anchored_prime(a, plans[j], b) or self._before_anchored_prime(b, plans[i], a)
            if self._exclusive(plans[i].block, plans[j].block):
                return True  # no run sets both
            for plan, f, other, g in ((plans[i], a, plans[j], b), (plans[j], b, plans[i], a)):
                item = self._item_in(plan, other.block) if self.region_of(plan.block)[0] < 0 else None
                if item is not None:
                    # a flag of a block in no loop (the function body, a branch of an
                    # if) and one inside a loop of that block: the loop's flag may cycle
                    # through versions (period > 1): all its sets and waits stay within
                    # the loop's passes; a carried one's primes and drains stand outside
                    # it, which `apart` does not see
                    return (Turns.eligible(f) and not g.cross_core and g.distance == 0
                            and turns_of(plan).apart(f, item))
            return False

        return shares

    def _before_anchored_prime(self, f: _Flag, plan: _Plan, g: _Flag) -> bool:
        """Whether anchored flag `f` (primed after an item of the function body:
        `_anchor_primes`) may share an id with `g` (of `plan`, no anchor): `g` lies in a
        top-level item at or before the anchor. Its primes then stand right before its
        loop instead (`_primes_after_earlier_ids`), which `_region_barriers` puts a
        pipe_barrier[<PIPE_ALL>] before: every set and wait of `g` completes before `f` is
        first set, and the anchor's work too. Unseen narrow seed 62 on four_ids (a runtime
        count, unrolled 4 times): the remainder loop's V -> MTE2 flag, anchored after
        the main loop, held one of the 4 ids over the whole function, the main loop's
        four V -> MTE2 flags ran short and its vector sets gathered after the last vadd:
        written 1022 a pass, ran 1304."""
        if f.anchor is None or g.anchor is not None or g.cross_core or f.anchor[1].parent_block() is not self.planner.body:
            return False
        body = self.planner.plans.get(self.planner.body)
        item = self._item_in(body, plan.block) if body is not None else None
        return item is not None and item <= f.anchor[0]

    def _primes_after_earlier_ids(self, flags: list[tuple[_Plan, _Flag]]) -> set[int]:
        """The anchored flags (by id()) that share an id with a flag of a top-level item at
        or before their anchor (`_before_anchored_prime`)."""
        out: set[int] = set()
        for _, f in flags:
            if f.anchor is None or f.first_id is None:
                continue
            ids = set(range(f.first_id, f.first_id + f.period))
            for plan, g in flags:
                if ((g.set_pipe, g.wait_pipe) == (f.set_pipe, f.wait_pipe) and g.first_id is not None
                        and ids & set(range(g.first_id, g.first_id + g.period)) and self._before_anchored_prime(f, plan, g)):
                    out.add(id(f))
                    break
        return out

    def _allocate_cross_core(self, blocks: list[tuple[_Plan, _Flag]], reserved: dict[Hashable, set[int]]) -> None:
        """Cross-core flag ids, per direction (a set raises a counter of the other core, a
        wait reads one of its own: cube -> vector and vector -> cube ids are apart) and
        reused by lifetime: a flag of the function body lives from its producer to its
        consumer, one inside a loop over its whole top-level item. A fresh id is taken
        while one is left; a reused one gets a pipe_barrier[<PIPE_ALL>] between its users
        (`_cross_core_barriers`)."""
        for op in self.planner.func_op.walk():
            if isinstance(op, hivm.SyncBlockSetOp | hivm.SyncBlockWaitOp) and op.flag_id is not None:
                core = op.core_type()
                direction = (core, other_core(core)) if isinstance(op, hivm.SyncBlockSetOp) else (other_core(core), core)
                reserved.setdefault(direction, set()).add(op.flag_id)
        self.block_spans = [(plan, f, self._span(plan, f)) for plan, f in blocks]
        requests = [EventRequest((core_of(f.set_pipe), core_of(f.wait_pipe)), lo, hi) for _, f, (lo, hi) in self.block_spans]
        ids = allocate_events(requests, hardware.CROSS_CORE_FLAGS, reserved, prefer_unused=True)
        for (_, f), first in zip(blocks, ids, strict=True):
            f.first_id = first

    def _span(self, plan: _Plan, f: _Flag) -> tuple[int, int]:
        lo, hi = self.top_region_of(plan.block)
        if lo >= 0:
            return lo, hi
        a, b = self.positions[plan.items[f.src]], self.positions[plan.items[f.dst]]
        return min(a[0], b[0]), max(a[1], b[1])

    def _span_items(self, plan: _Plan, f: _Flag) -> tuple[Operation, Operation]:
        """The top-level items a cross-core flag's lifetime starts and ends with."""
        top = self._top(plan)
        if top is not None:
            return top, top
        return plan.items[min(f.src, f.dst)], plan.items[max(f.src, f.dst)]

    def emit(self) -> None:
        flags = self.allocate()
        self.allocated_ids = {id(f): f.first_id for _, f in flags}
        self._apart_from_other_items(flags)
        fallbacks = self._emit_barriers()
        # credits around items last: their waits then stand right after their item,
        # before every set there, as the block's model has them (_model_credits)
        self.late_primes = self._primes_after_earlier_ids(flags)
        for plan, f in sorted(flags, key=lambda pf: pf[1].around):
            self._emit_flag(plan, f)
        self._region_barriers(flags)
        self._cross_core_barriers()
        self._final_drain()
        # only in a block in no loop (the function body, a branch of an `if` in it):
        # inside a loop, a prime moved up and a drain moved down would meet around the
        # back edge with nothing ordering the drain's wait before the next iteration's
        # prime (a double set). In a branch too: the drains right after a runtime count's
        # pipelined loop, inside its guard, held their wait pipes there, and the
        # epilogue's ops behind them (narrow seed 252 on the 950: V waited for the last
        # store before the epilogue's vector ops and their load, 285 cycles a run)
        for prime in self.primes:
            if self._in_no_loop(prime.parent_block()):
                hoist_prime(prime)
        drains: dict[Block, list[hivm.WaitFlagOp]] = {}
        for drain in self.drains:
            if (block := drain.parent_block()) is not None and self._in_no_loop(block):
                drains.setdefault(block, []).append(drain)
        for block, waits in drains.items():
            ops = list(block.ops)
            # in program order (each was inserted right after its loop, so the list is in
            # reverse), so that drains moved to the same place keep their order
            for drain in sorted(waits, key=ops.index):
                sink_drain(drain)
        self._drop_needless_region_barriers()
        replaced = {id(fb.remark) for fb in fallbacks} - {id(fb.remark) for fb in self._flag_fallbacks(fallbacks)}
        for short in self.remarks:  # in the order the barriers were chosen
            if id(short.remark) not in replaced:
                emit_remark(*short.remark)

    def _emit_barriers(self) -> list[Fallback]:
        """The blocks' pipe barriers; those that stand for straight-line flags short of an
        id (`_straight_line_barriers`, as allocated at last) as fallbacks to try again."""
        shorts = {(id(short.plan), short.at): short for short in self.remarks}
        fallbacks: list[Fallback] = []
        for plan in self.planner.plans.values():
            for idx, pipe in dict.fromkeys(plan.barriers):  # a barrier asked for twice is one
                which = "ALL" if pipe.startswith("ALL:") else pipe_of(pipe)  # ALL:<core>: the model's drain of one core
                barrier = Builder(InsertPoint.before(plan.items[idx])).insert(hivm.PipeBarrierOp(which))
                if which == "ALL" and (short := shorts.get((id(plan), idx))) is not None:
                    fallbacks.append(Fallback(barrier, short.hand_offs(), short.remark))
        return fallbacks

    def _flag_fallbacks(self, fallbacks: list[Fallback]) -> list[Fallback]:
        """Flags in place of the straight-line barriers where ascend-verify-sync passes the
        function with them (`sync_fallbacks`); the barriers that stay."""
        mendable = [fb for fb in fallbacks if fb.hand_offs]
        if not mendable or not self._verifiable():
            return fallbacks

        def ids(pair: Hashable) -> list[int]:
            reserved = self.reserved.get(pair, set())
            return [v for v in range(self.events_per_pipe_pair) if v not in reserved]

        kept = flag_fallbacks(mendable, ids, self._verifies, sum(1 for _ in self.planner.func_op.walk()))
        return [fb for fb in fallbacks if not fb.hand_offs or fb in kept]

    def _drop_needless_region_barriers(self) -> None:
        """A region barrier whose work the flags already do goes: ascend-verify-sync's check
        of the function passes without it (every id the two items share is waited in the
        earlier one before the later one sets it: the later loop's primes follow the
        earlier loop's drains on their pipes). Tried one at a time in program order, each
        kept where the function does not verify without it (or is too large to check)."""
        if not self._verifiable():
            return
        for barrier in self.region_barriers:
            after = barrier.next_op
            assert after is not None
            barrier.detach()
            if not self._verifies():
                Builder(InsertPoint.before(after)).insert(barrier)

    def _verifiable(self) -> bool:
        """Whether ascend-verify-sync can judge the function alone: not one half of a MIX
        kernel, whose cross-core flags it checks only beside the other half."""
        return not any(isinstance(op, hivm.SyncBlockSetOp) for op in self.planner.func_op.walk())

    def _verifies(self) -> bool:
        """The function as it stands passes ascend-verify-sync (False too where it is too
        large to check)."""
        try:
            return verify_functions([self.planner.func_op], self.planner.chip)
        except OpError:
            return False

    def _in_no_loop(self, block: Block | None) -> bool:
        """Whether `block` is the function body or a block of an `if` in no loop."""
        return block is not None and self._loop_of(block) is None

    def _emit_flag(self, plan: _Plan, f: _Flag) -> None:
        src_op, dst_op = plan.items[f.src], plan.items[f.dst]
        set_pipe, wait_pipe = pipe_of(f.set_pipe), pipe_of(f.wait_pipe)
        if f.first_id is None:
            if f.cross_core:
                raise CrossCoreFlagsExhausted(
                    dst_op,
                    f"ascend-insert-sync: more than {hardware.CROSS_CORE_FLAGS} {core_of(f.set_pipe).lower()} -> "
                    f"{core_of(f.wait_pipe).lower()} cross-core flags live at once "
                    "(use ascend-insert-barrier-sync for this kernel)",
                )
            emit_remark(*self._remark_short(plan, f))
            Builder(InsertPoint.before(dst_op)).insert(hivm.PipeBarrierOp("ALL"))
            return
        loop = plan.block.parent_op()
        if f.cross_core:
            emit_block_flag(f, src_op, dst_op, loop)
            return
        event: int | SSAValue = f.first_id
        waited: int | SSAValue = f.first_id
        if f.period > 1:
            assert isinstance(loop, scf.ForOp)
            event = waited = version_event(loop, f.period, f.first_id)
            if f.distance and f.distance % f.period:  # a ring: pass k waits the id of pass k - distance
                waited = version_event(loop, f.period, f.first_id, f.period - f.distance % f.period)
        if f.around:
            Builder(InsertPoint.before(src_op)).insert(hivm.SetFlagOp(set_pipe, wait_pipe, event))
            Builder(InsertPoint.after(dst_op)).insert(hivm.WaitFlagOp(set_pipe, wait_pipe, event))
            return
        self._insert_set(src_op, hivm.SetFlagOp(set_pipe, wait_pipe, event), f.distance > 0)
        Builder(InsertPoint.before(dst_op)).insert(hivm.WaitFlagOp(set_pipe, wait_pipe, waited))
        if f.distance and isinstance(loop, scf.ForOp):
            primes, drains = ring_versions(f.distance, f.period, loop_bounds(loop)[1])
            for v in primes:
                if f.anchor is not None and id(f) in self.late_primes:
                    # right before the loop, after the barrier _region_barriers puts there
                    Builder(InsertPoint.before(loop)).insert(hivm.SetFlagOp(set_pipe, wait_pipe, f.first_id + v))
                elif f.anchor is not None:
                    # not hoisted: its first wait stands for the producer before the loop
                    Builder(InsertPoint.after(f.anchor[1])).insert(hivm.SetFlagOp(set_pipe, wait_pipe, f.first_id + v))
                else:
                    prime = hivm.SetFlagOp(set_pipe, wait_pipe, f.first_id + v)
                    self.primes.append(Builder(InsertPoint.before(loop)).insert(prime))
            for v in drains:
                self.drains.append(Builder(InsertPoint.after(loop)).insert(hivm.WaitFlagOp(set_pipe, wait_pipe, f.first_id + v)))

    def _remark_short(self, plan: _Plan, f: _Flag) -> tuple[Operation, str]:
        """The remark on a flag that found no id: emitted with the code (`emit`)."""
        needed = self.needed.get((plan.block, f.set_pipe, f.wait_pipe), f.period)
        return (
            plan.items[f.dst],
            f"ascend-insert-sync: {block_name(plan.block)}: {pipe_of(f.set_pipe)} -> {pipe_of(f.wait_pipe)} needs "
            f"{needed} event id{'s' if needed != 1 else ''} live at once, the chip has {self.events_per_pipe_pair}"
            f"{self._held_by_others(plan, f)}; pipe_barrier[<PIPE_ALL>] instead",
        )

    def _held_by_others(self, plan: _Plan, f: _Flag) -> str:
        """Which other blocks' flags of `f`'s pipe pair hold ids while `f` would (for the
        remark of a flag that found none): for a flag in a top-level item, flags of the
        function body set before the item ends (and not known done before it starts) and
        flags of other blocks in the same item; for a flag in no loop, the flags of the
        loops within its interval (`_interval`: a function-body flag's is the whole body)."""
        lo, hi = self.region_of(plan.block)
        since = self._interval(plan, f)[0]
        held: dict[str, set[int]] = {}
        for other in self.planner.plans.values():
            region = self.region_of(other.block)
            for g in other.flags if other is not plan else ():
                if (g.set_pipe, g.wait_pipe) != (f.set_pipe, f.wait_pipe) or g.first_id is None or g.cross_core:
                    continue
                if lo < 0 and region[0] >= 0:
                    holds = region[1] >= since
                else:
                    holds = self._first_use(other, g) <= hi if region[0] < 0 else region == (lo, hi)
                if holds:
                    held.setdefault(block_name(other.block), set()).update(range(g.first_id, g.first_id + g.period))
        return "".join(f", {name}'s flags hold {'ids' if len(ids) > 1 else 'id'} {id_ranges(ids)}"
                       for name, ids in sorted(held.items()))

    def _insert_set(self, src_op: Operation, set_op: hivm.SetFlagOp, carried: bool) -> None:
        """`set_op` after `src_op`, a loop-carried flag's set after its pipe's sets there for this
        iteration: this iteration's store then takes the GM path before the next load."""
        at = src_op
        while (carried and isinstance(nxt := at.next_op, hivm.SetFlagOp) and self.set_keys.get(nxt) is False
               and nxt.pipes() == set_op.pipes()):
            at = nxt
        Builder(InsertPoint.after(at)).insert(set_op)
        self.set_keys[set_op] = carried

    def _apart_from_other_items(self, flags: list[tuple[_Plan, _Flag]]) -> None:
        """Each later top-level item's ids of a pipe pair moved, all by one shift, onto
        ids no flag outside it uses, where there are such: items that share no id need no
        pipe_barrier[<PIPE_ALL>] between them (`_region_barriers`). The ids are allocated
        from 0 in each item, so a runtime count's remainder loop took the ids of the
        unrolled loop before it and waited behind its every pipe (narrow seed 4137 on the
        910B: 1747 cycles at 5 trips against barrier-all's 1703). A shift keeps a ring's
        ids consecutive and every flag of the item apart as allocated."""
        items: dict[tuple[Operation, tuple[str, str]], list[_Flag]] = {}
        used: dict[tuple[str, str], list[tuple[Operation | None, _Flag]]] = {}
        for plan, f in flags:
            if f.first_id is None or f.cross_core:
                continue
            top, pair = self._top(plan), (f.set_pipe, f.wait_pipe)
            used.setdefault(pair, []).append((top, f))
            if top is not None:
                items.setdefault((top, pair), []).append(f)
        first_item = {pair: min((top for top, _ in users if top is not None), key=lambda op: self.positions[op][0],
                                default=None) for pair, users in used.items()}
        for (top, pair), mine in sorted(items.items(), key=lambda kv: self.positions[kv[0][0]][0]):
            if top is first_item[pair]:
                continue
            ids = {v for f in mine for v in range(f.first_id, f.first_id + f.period)}  # type: ignore[operator]
            elsewhere = set(self.reserved.get(pair, ())) | {
                v for other, f in used[pair] if other is not top
                for v in range(f.first_id, f.first_id + f.period)}  # type: ignore[operator]
            if not ids & elsewhere:
                continue
            shifts = sorted(range(-max(ids), self.events_per_pipe_pair - max(ids)), key=abs)
            shift = next((s for s in shifts if min(ids) + s >= 0 and not {v + s for v in ids} & elsewhere), None)
            if shift is not None:
                for f in mine:
                    f.first_id += shift  # type: ignore[operator]

    def _region_barriers(self, flags: list[tuple[_Plan, _Flag]]) -> None:
        """Between two top-level items whose flags share an id of a pipe pair, a
        pipe_barrier[<PIPE_ALL>], so that the earlier one's waits ran before the later
        one's sets."""
        used: dict[Operation, set[tuple]] = {}
        for plan, f in flags:
            first = self.allocated_ids.get(id(f), f.first_id)
            if first is None or f.cross_core:
                continue
            top = self._top(plan)
            if top is None:
                continue  # function-body flags do not share ids (see allocate)
            for v in range(first, first + f.period):
                used.setdefault(top, set()).add((f.set_pipe, f.wait_pipe, v))
        seen: set[tuple] = set()
        for op in list(self.planner.body.ops):
            mine = used.get(op, set())
            if mine & seen:
                # drained where a barrier already stands before the region's primes (a
                # straight-line flag's that fell back, right before the loop)
                first = self._first_of_region(op)
                if first.prev_op is None or not hivm.is_barrier_all(first.prev_op):
                    barrier = hivm.PipeBarrierOp("ALL")
                    Builder(InsertPoint.before(first)).insert(barrier)
                    self.region_barriers.append(barrier)
            seen |= mine
        self._nested_loop_barriers(flags)

    def _nested_loop_barriers(self, flags: list[tuple[_Plan, _Flag]]) -> None:
        """The same between two loops of one top-level item (`region_of`: their flags may
        share ids) that one run may take both of, in program order."""
        used: dict[Operation, set[tuple]] = {}
        for plan, f in flags:
            loop = self._loop_of(plan.block)
            if f.first_id is None or f.cross_core or loop is None or loop.parent_block() is self.planner.body:
                continue
            used.setdefault(loop, set()).update((f.set_pipe, f.wait_pipe, v) for v in range(f.first_id, f.first_id + f.period))
        loops = sorted(used, key=lambda op: self.positions[op][0])
        for k, loop in enumerate(loops):
            body = loop.parent_block()
            assert body is not None
            if any(used[loop] & used[earlier] and self._top_item(body) is self._top_item(earlier_block)
                   and not self._exclusive(body, earlier_block)
                   for earlier in loops[:k] if (earlier_block := earlier.parent_block()) is not None):
                first = self._first_of_region(loop)
                prev = first.prev_op
                if prev is None or not hivm.is_barrier_all(prev):
                    Builder(InsertPoint.before(first)).insert(hivm.PipeBarrierOp("ALL"))

    def _cross_core_barriers(self) -> None:
        """Between two users of one cross-core flag id (of one direction), a
        pipe_barrier[<PIPE_ALL>], which each core runs: the producer's core has completed
        the earlier user's sets before it issues the later one's, and the consumer's core
        has consumed the earlier user's sets before it issues the later one's waits, so
        the counter never mixes the two."""
        users: dict[tuple, list[tuple[int, int, Operation, Operation]]] = {}
        for plan, f, (lo, hi) in self.block_spans:
            if f.first_id is not None:
                key = (core_of(f.set_pipe), core_of(f.wait_pipe), f.first_id)
                users.setdefault(key, []).append((lo, hi, *self._span_items(plan, f)))
        reuses = []
        for spans in users.values():
            spans.sort(key=lambda span: span[0])
            for earlier, later in zip(spans, spans[1:], strict=False):
                assert earlier[1] < later[0], "cross-core flag id reused by overlapping lifetimes"
                reuses.append((later[0], earlier[3], later[2]))
        for _, earlier_end, later_start in sorted(reuses, key=lambda r: r[0]):
            first = self._first_of_region(later_start)
            if not barrier_all_between(earlier_end, first):
                Builder(InsertPoint.before(first)).insert(hivm.PipeBarrierOp("ALL"))

    def _first_of_region(self, op: Operation) -> Operation:
        """The first op that belongs to `op`'s region (its primes come right before it)."""
        while isinstance(op.prev_op, hivm.SetFlagOp | hivm.SyncBlockSetOp):
            op = op.prev_op
        return op

    def _top(self, plan: _Plan) -> Operation | None:
        return self._top_item(plan.block)

    def _top_item(self, block: Block) -> Operation | None:
        """The item of the function body that `block` lies in (None: the body itself)."""
        op = block.parent_op()
        if op is None or op is self.planner.func_op:
            return None
        while op.parent_block() is not self.planner.body:
            parent = op.parent_op()
            assert parent is not None
            op = parent
        return op

    def _final_drain(self) -> None:
        terminator = self.planner.body.last_op
        if terminator is None or not self.planner.leaves:
            return
        prev = terminator.prev_op
        if prev is not None and hivm.is_barrier_all(prev):
            return
        Builder(InsertPoint.before(terminator)).insert(hivm.PipeBarrierOp("ALL"))


@dataclass(frozen=True)
class InsertSyncPass(ModulePass):
    """Flags and pipe barriers for every dependence that needs one (see the module doc)."""

    name = "ascend-insert-sync"

    # the chip (its event ids per pipe pair), chosen as by every pass: see chips.resolve_chip
    chip: str | None = None
    chip_file: str | None = None
    # a function of straight-line code of one core whose code replays faster with its
    # hand-offs as pipe_barrier[<PIPE_ALL>]s gets them (module doc, item 7); false: flags
    straight_line_barriers: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # an op this pass cannot see the pipes of would be left unsynchronised
        require_hivm_level(op, self.name)
        chip = module_chip(op, self.chip, self.chip_file)
        events = chip.events_per_pipe_pair
        for func_op in [f for f in op.walk() if isinstance(f, func.FuncOp)]:
            if not func_op.body.blocks or not any(isinstance(o, hivm.HivmPipeOp) for o in func_op.walk()):
                continue
            if self.straight_line_barriers and serial_runs_faster(func_op, chip):
                ascend.set_barrier_sync(func_op)
            planner = _Planner(func_op, chip)
            planner.collect()
            # inner blocks first: a block's plan may hand dependences into one of its
            # loops over to that loop's primes (_anchor_primes)
            loop_plans: dict[Operation, _Plan] = {
                parent: p for p in planner.plans.values() if (parent := p.block.parent_op()) is not None
            }
            for plan in sorted(planner.plans.values(), key=lambda p: -block_depth(p.block)):
                _plan_block(plan, loop_plans)
            _Emitter(planner, events).emit()
