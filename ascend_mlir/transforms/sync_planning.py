"""The planning half of `ascend-insert-sync` (moved out of insert_sync.py, whose module
docstring describes the whole pass): for one block, which dependences get flags,
barriers, primes and drains, where sets gather, and which flags take rings of ids or
credits. `_Emitter` in insert_sync.py writes the plan as IR. And `serial_runs_faster`:
whether a function of straight-line code runs faster with barriers than with flags."""

from __future__ import annotations


from dataclasses import replace
from functools import reduce

from xdsl.dialects import func, scf
from xdsl.ir import Block, Operation

from ascend_mlir.analysis import flag_sets
from ascend_mlir.analysis.loop_model import straight_line_problem
from ascend_mlir.chips import Chip
from ascend_mlir.scheduling import LoopProblem
from ascend_mlir.scheduling.realize import loop_cycles, replays
from ascend_mlir.analysis.event_ids import RING_EXTRA_IDS, Carried, merge_carried, ring_sizes
from ascend_mlir.analysis.size_bounds import trip_count_bounds
from ascend_mlir.analysis.sync_plan import (
    Coverage,
    covered,
    orders_within,
    set_after_own_wait,
    set_after_wait,
    sets_after_waits,
)
from ascend_mlir.dialects import ascend, hivm
from ascend_mlir.transforms.sync_blocks import (
    _carried_key,
    drained_at_end,
    _Flag,
    primed_versions,
    _is_loop_body,
    _model,
    body_runs,
    _Plan,
    _Req,
)
from ascend_mlir.transforms.sync_events import (
    core_of,
    first_pass_event,
    op_core,
    pipe_of,
    qualified,
)


def _plan_block(plan: _Plan, loop_plans: dict[Operation, _Plan] | None = None) -> None:
    """The flags and barriers of one block. `loop_plans` (for the function body, with
    its loops' bodies already planned): the plans of its loop items, whose primes may
    take over a dependence into the loop (`_anchor_primes`)."""
    reqs = sorted(plan.reqs, key=lambda r: (r.distance, r.dst, -r.src, r.src_pipe, r.dst_pipe))
    loop_body = _is_loop_body(plan.block)
    # a loop whose code runs faster so (ascend.barrier_sync, set by ascend-modulo-schedule):
    # a hand-off within its core is a pipe_barrier[<PIPE_ALL>] before the consumer
    # and a function of straight-line code whose code runs faster so (the same pass)
    serial = ascend.is_barrier_sync(plan.block.parent_op())  # type: ignore[arg-type]
    run: Coverage | None = None  # one run of the block's model while it does not change
    for r in reqs:
        if r.distance and not loop_body:
            continue
        if len(plan.cores) == 1 and drained_at_end(plan.items[r.src],
                                                   pipe_of(r.src_pipe) if r.src_pipe == r.dst_pipe else None):
            continue  # a guarded loop: its if drains every pipe after it, or this one (a second run)
        if r in plan.inner:  # the model with this dependence's anchored primes
            done = covered(_model(plan, r), r.src, r.dst, r.src_pipe, r.dst_pipe, r.distance)
        else:
            run = run or Coverage(_model(plan))
            done = run.covered(r.src, r.dst, r.src_pipe, r.dst_pipe, r.distance)
            if done is None:
                run = Coverage(_model(plan))
                done = run.covered(r.src, r.dst, r.src_pipe, r.dst_pipe, r.distance)
        if done:
            continue
        run = None  # a flag, barrier or anchored prime follows: the model changes
        if loop_plans is not None and _anchor_primes(plan, r, loop_plans):
            continue
        if r.src_pipe == r.dst_pipe:
            plan.barriers.append((r.dst, r.src_pipe))
        elif serial and core_of(r.src_pipe) == core_of(r.dst_pipe):
            plan.barriers.append((r.dst, f"ALL:{core_of(r.src_pipe)}:"))  # every pipe of the core
        else:
            cross_core = core_of(r.src_pipe) != core_of(r.dst_pipe)
            period = 1 if cross_core else flag_sets.flag_ids(r.distance, r.src < r.dst)
            plan.flags.append(_Flag(r.src, r.dst, r.src_pipe, r.dst_pipe, r.distance, period))
    _gather_sets(plan)
    if loop_body:
        _rings_or_within(plan)
        _no_double_set(plan)
        _zero_trip_credits(plan, loop_plans or {})


def _anchor_primes(plan: _Plan, r: _Req, loop_plans: dict[Operation, _Plan]) -> bool:
    """Whether a dependence from an item before a loop to an op inside it (items of one
    block) is taken over by the primes of one of the loop's carried flags: a flag of
    the same pipe pair whose wait in the loop's first pass comes before the consumer.
    Its primes (the sets that stand for the iterations before the first) then go right
    after the producer instead of the top of the function, so the loop's first wait is
    the wait for the producer, and the loop's first ops on the consumer pipe that do not
    touch the producer's data (the next K step's other feed) need not wait for it: the
    peeled first K step of a cube kernel (peel-mmad-init) sets the loop's first event
    itself. A set on the producer pipe waits for every earlier op of that pipe, the
    producer's among them."""
    loop = plan.items[r.dst]
    inner = plan.inner.get(r)
    loop_plan = loop_plans.get(loop)
    if inner is None or loop_plan is None or r.distance or r.src_pipe == r.dst_pipe:
        return False
    if (held := _held_prime(plan, r, loop_plan, inner)) is not None:  # this pass's own, run before
        plan.anchored.append((r, held))
        return True
    for f in loop_plan.flags:
        if f.cross_core or f.distance < 1 or f.dst > inner:
            continue
        if (f.set_pipe, f.wait_pipe) != (r.src_pipe, r.dst_pipe):
            continue
        if _is_loop_body(plan.block) and not _primes_after_drains(plan, r, f):
            continue
        f.anchor = _latest_anchor(f.anchor, (r.src, plan.items[r.src]))
        plan.anchored.append((r, f))
        return True
    return False


def _latest_anchor(*anchors: tuple[int, Operation] | None) -> tuple[int, Operation] | None:
    """Of flags' anchors (the item of the function body their primes follow: `_anchor_primes`),
    the latest, or None: a set after it covers the earlier producers' on its pipe."""
    return max((a for a in anchors if a is not None), key=lambda a: a[0], default=None)


def _held_prime(plan: _Plan, r: _Req, loop_plan: _Plan, inner: int) -> _Flag | None:
    """An anchored prime in the input (a set_flag of r's pair after the producer, a wait of
    its id in the loop before the consumer) as a flag standing for it, for the model."""
    for idx, op in enumerate(loop_plan.items[: inner + 1]):
        if not isinstance(op, hivm.WaitFlagOp):
            continue
        # the id the first pass waits (a carried flag's version id, computed from the
        # induction variable, is known there): a wait on the consumer's pipe passes what
        # it learns on to that pipe's later ops, so every later pass is ordered too
        first = first_pass_event(op, plan.items[r.dst])
        core = op_core(op, plan.cores[0])
        if first is None or (qualified(core, op.set_pipe.pipe_name), qualified(core, op.wait_pipe.pipe_name)) != (r.src_pipe, r.dst_pipe):
            continue
        for prime in plan.items[r.src + 1 : r.dst]:
            same = isinstance(prime, hivm.SetFlagOp) and (prime.set_pipe, prime.wait_pipe) == (op.set_pipe, op.wait_pipe)
            if same and prime.event_id == first:  # type: ignore[union-attr]
                return _Flag(r.src, idx, r.src_pipe, r.dst_pipe, 1)
    return None


def _primes_after_drains(plan: _Plan, r: _Req, f: _Flag) -> bool:
    """Inside an enclosing loop: whether the primes of `f` right after item `r.src` are
    ordered after the drains (waits right after the loop item `r.dst`) of the previous
    pass over the block, so that its ids are never set twice (the block's model with
    the prime and the drain as one more flag of the pair)."""
    model = _model(plan)
    key = ("anchor", id(f))
    model.after.setdefault(r.src, []).append(lambda copy: ("set", f.set_pipe, f.wait_pipe, key))
    model.after.setdefault(r.dst, []).append(lambda copy: ("wait", f.set_pipe, f.wait_pipe, key))
    return set_after_wait(model, lambda ev: ev[3] if ev[0] != "barrier" else None, key, 1)


def _timed_items(plan: _Plan) -> tuple[list[flag_sets.Item], int | None]:
    """The block's items for `flag_sets` (pipes, and their slot when the block is the body
    of a scheduled loop: offsets within the II when the loop is pipelined) and the II."""
    loop = plan.block.parent_op()
    sched = ascend.loop_of(loop) if isinstance(loop, scf.ForOp) else None
    # program order keeps each set after its producer, as estimated (program_order.py; gathered,
    # the next pass's loads waited for the last store: bench random kernel 0, 8525 vs 7829)
    ii = sched.ii if sched is not None and sched.status != "program-order" else None
    written = ii
    if ii is not None:
        # a stretched schedule (ascend.code_ii): its set points are those of the II it
        # was laid out at, the code the II written was replayed from
        ii = ascend.code_ii_of(loop) or ii  # type: ignore[arg-type]
    items = []
    for op, pipes in zip(plan.items, plan.item_pipes, strict=True):
        task = ascend.task_of(op) if ii is not None else None
        if task is None or task.start is None:
            items.append(flag_sets.Item(pipes))
            continue
        # the start the task had at the II the code is laid out at (a stretched schedule
        # keeps stages and offsets)
        start = task.start - (task.stage or 0) * (written - ii)  # type: ignore[operator]
        start = start % ii if ascend.is_pipelined(loop) else start  # type: ignore[operator]
        items.append(flag_sets.Item(pipes, start, task.latency, task.ii))
    return items, ii


def short_as_replayed(plans: dict[Block, _Plan], ids: int) -> dict[Block, list[tuple[str, str]]]:
    """The pairs of each loop body whose flags need more than `ids` ids when each holds
    its own over the whole loop (`flag_sets.ids_needed`), as the replay counts them
    (`code_flags.placed_sets`), which then writes the code with their sets gathered at
    the fewest points: sharing ids by turns instead left more sets, each draining its
    pipe (four_ids seed 347: 6 MTE2 -> V sets a pass where the replay had 4, written
    1505, ran 2240)."""
    out: dict[Block, list[tuple[str, str]]] = {}
    for block, plan in plans.items():
        if not _is_loop_body(block):
            continue
        flags, releases = movable_releases(plan)
        need = flag_sets.ids_needed(releases, [f.src for f in flags], [f.period for f in flags])
        pairs = [pair for pair, n in sorted(need.items()) if n > ids]
        if pairs:
            out[block] = pairs
    return out


def movable_releases(plan: _Plan) -> tuple[list[_Flag], list[flag_sets.Release]]:
    """The block's flags whose sets may move (within one core, not around a nested
    region), and their releases for `flag_sets`."""
    movable = [f for f in plan.flags if not f.cross_core and not f.around]
    return movable, [flag_sets.Release(f.src, f.dst, f.set_pipe, f.wait_pipe, f.distance) for f in movable]


def _gather_sets(plan: _Plan, fewest: frozenset[str] = frozenset()) -> None:
    """One set_flag per (producer pipe, consumer pipe, point): the flags' sets move to
    the fewest points the schedule allows (`analysis.flag_sets`; for the set pipes in
    `fewest`, the fewest points at all), and flags of one pipe pair and distance at one
    point become one, waited before the earliest consumer."""
    movable, releases = movable_releases(plan)
    if not movable:
        return
    items, ii = _timed_items(plan)
    points = flag_sets.set_points(items, releases, ii, fewest)
    for f, point in zip(movable, points, strict=True):
        f.src = point
    _merge_at_points(plan)


def _merge_at_points(plan: _Plan) -> None:
    """Flags of one pipe pair, distance and ids set after one item become one, waited
    before the earliest consumer."""
    merged: dict[tuple, _Flag] = {}
    flags: list[_Flag] = []  # in the order they were planned (the order they are emitted in)
    for f in plan.flags:
        if f.cross_core or f.around:
            flags.append(f)
            continue
        key = (f.src, f.set_pipe, f.wait_pipe, f.distance, f.period)
        if key in merged:
            kept = merged[key]
            kept.dst = min(kept.dst, f.dst)
            kept.anchor = _latest_anchor(kept.anchor, f.anchor)  # the later producer's set covers the earlier one
            continue
        merged[key] = f
        flags.append(f)
    plan.flags = flags


def _fewer_ids_where_ordered(plan: _Plan) -> None:
    """A flag within the pass that took more ids than one at its old set point (nothing
    ordered its next set after its wait there) takes one where its gathered point orders
    that (`_gather_sets` with `fewest`), as the replay asks each gathered flag again
    (`code_flags.placed_sets`), and merges with the flags set there on one id. Four_ids
    seed 308: two V -> MTE3 flags after one vector op, one on two ids, stayed apart, ran
    the pair short, and took turns on a ring behind a credit flag the replay did not have
    (written 555, ran 926 a pass). Only lowered where one id is ordered: a flag set back
    to one id and asked again by `_no_double_set` may take a credit where its ring of two
    was ordered."""
    lowered = False
    for flag in plan.flags:
        if flag.distance or flag.period == 1 or flag.cross_core or flag.around or flag.anchor is not None:
            continue
        kept, flag.period = flag.period, 1
        if set_after_wait(_model(plan), _carried_key, id(flag), 1):
            lowered = True
        else:
            flag.period = kept
    if lowered:
        _merge_at_points(plan)


class _SetsAfterWaits:
    """Whether a flag's sets each come after the wait before (`set_after_wait` at its
    period), on the plan as it stands: one run of the block answers every flag of a
    period (`sets_after_waits`), where a run per flag took 14% of a 256-op loop's
    compile. `forget` before the plan changes: the answers are then found again."""

    def __init__(self, plan: _Plan):
        self.plan = plan
        self.answers: dict[int, set[int]] = {}  # per period, the flags' ids that pass

    def __call__(self, flag: _Flag) -> bool:
        if flag.period not in self.answers:
            ids = {id(f) for f in self.plan.flags}
            self.answers[flag.period] = sets_after_waits(_model(self.plan), _carried_key, ids, flag.period)
        return id(flag) in self.answers[flag.period]

    def forget(self) -> None:
        self.answers.clear()


def _no_double_set(plan: _Plan) -> None:
    """Give flags that could be set again before their wait ran one id per version, or
    a credit flag back (see the module docstring)."""
    versions = max([f.period for f in plan.flags] + [2])
    runs = body_runs(plan.block)
    # a flag on one id per version is set once per id: the body of a loop no other loop
    # encloses (whose ids would restart with each outer pass) runs no more times than that
    once_per_version = runs is not None and runs <= versions and _outermost_loop_body(plan.block)
    set_after_its_wait = _SetsAfterWaits(plan)
    for flag in list(plan.flags):
        if flag.cross_core or flag.around:
            continue  # cross-core flags count: a second set before the wait is fine
        if flag.distance == 0 and runs is not None and runs <= flag.period:
            # each id is set at most once: the block's code runs no more times than the
            # flag has ids (a loop of one trip: no next pass can set it again; its credit
            # flag back would only hold the set pipe's next op behind the wait, random
            # kernel 82: 808 cycles with it, barrier-all 741)
            continue
        if set_after_its_wait(flag):
            continue
        set_after_its_wait.forget()  # what follows changes the plan
        if flag.distance == 0 and flag.period < versions:
            flag.period = versions
            if once_per_version:
                # one id per pass: none is set twice (random kernel 502, two trips: its
                # credit flag back held the last load of the second pass behind the
                # first store of the first, 5027 cycles, program order 4869)
                continue
            if _on_a_ring(plan, flag, fewest=versions):
                continue
            flag.period = 1
        if flag.src == flag.dst:
            continue  # one item on both sides: nothing to place between them
        if flag.distance and flag.period <= flag.distance and runs is not None and _on_a_ring(plan, flag):
            # the next set of an id a pass or two later, after its wait, where a credit flag
            # back would be set after the consumer and drain its pipe in every pass
            continue
        if flag.distance == 0:
            plan.flags.append(_Flag(flag.dst, flag.src, flag.wait_pipe, flag.set_pipe, 1, 1))
        else:
            plan.flags.append(_Flag(flag.dst, flag.src, flag.wait_pipe, flag.set_pipe, 0, 1))


def _on_a_ring(plan: _Plan, flag: _Flag, extra_ids: int = RING_EXTRA_IDS,
               orders: dict[int, dict[str, frozenset[str]]] | None = None, fewest: int | None = None) -> bool:
    """Whether a flag that could be set again before its wait consumed the previous set
    takes a ring of ids instead of a credit flag back: the fewest ids, from `fewest`
    (default distance + 1, a carried flag's) to `extra_ids` more, whose next set of an
    id is ordered after that wait (`set_after_own_wait`, in the block's model with nested
    loops' `orders`); the flag keeps them. A credit's set stands after the consumer and
    drains its pipe every pass. Unseen seed 116, 10 chains: a carried flag's credit after
    the first store held the nine stores behind it 197 cycles, written 458, ran 639; two
    ids were not enough there, the V pipe's next set being ordered after the stores of
    the pass before only, three were. Seed 160, 10 chains: an MTE2 -> MTE3 flag waited
    in its own pass (`fewest` one per version) was not ordered on two ids, and its credit,
    set after the first store and waited before the next pass's last load, held every
    pass's loads behind a store's 221 cycles: written 468, ran 702; three ids order it."""
    kept = flag.period
    for period in ring_sizes(flag.distance + 1 if fewest is None else fewest, extra_ids):
        flag.period = period
        model = _model(plan)
        if orders is not None:
            model.orders = orders
        if set_after_own_wait(model, _carried_key, id(flag), flag.distance, period):
            return True
    flag.period = kept
    return False


def _outermost_loop_body(block: Block) -> bool:
    """Whether `block` is the body of a loop that no other loop encloses (its passes are
    the kernel's only runs of it, numbered by its own induction variable)."""
    loop = block.parent_op()
    if not isinstance(loop, scf.ForOp):
        return False
    around = loop.parent_op()
    while around is not None and not isinstance(around, scf.ForOp):
        around = around.parent_op()
    return around is None


def _rings_or_within(plan: _Plan) -> None:
    """A loop-carried flag set before its wait in the pass (the producer comes first in
    the body, the consumer reads it `distance` passes later: the store of tile i - 1
    before the vmul of tile i into the buffer that store reads next) takes distance + 1
    ids, one per pass mod period: pass k sets id k and waits id k - distance. Where the
    next set of an id is not ordered after the wait that consumed it
    (`sync_plan.set_after_own_wait`), a ring of up to `RING_EXTRA_IDS` more ids that
    orders it (`_on_a_ring`), else the flag is waited in its own pass (distance 0),
    which orders every later pass too. Narrow seed 71 on the 950: a store's flag to a
    load later in the next pass, not ordered on two ids, was waited in its own pass, each
    pass's last load waiting for its stores (written 390 a pass, ran 572); three ids
    order it (`code_flags._rings_or_within` is the replay's)."""
    for flag in plan.flags:
        if flag.cross_core or flag.around or not 1 <= flag.distance < flag.period or flag.src >= flag.dst:
            continue
        if not _on_a_ring(plan, flag):  # from its distance + 1 ids, its period here
            flag.distance, flag.period = 0, 1


def _zero_trip_credits(plan: _Plan, loop_plans: dict[Operation, _Plan]) -> None:
    """A loop-carried flag whose next set of an id is not ordered after the wait that
    consumed the previous set (its own pass's: `sync_plan.set_after_own_wait`), as when it
    is set and waited around a nested loop that may run 0 times (the model makes a nested
    loop one item; only its own flags order the wait before the set, when it runs). With
    the orders nested loops give for every trip count (`_nested_orders`), a flag still
    unordered gets a credit the other way round (wait pipe -> set pipe, its period) around
    the items from its wait to its set: set right after its wait, waited right before its
    set. Where every flag is ordered (every example without such a loop), nothing changes."""
    carried = [f for f in plan.flags if not f.cross_core and not f.around and f.distance >= 1
               and f.distance <= f.period and f.src >= f.dst]
    if not carried:
        return
    orders = _nested_orders(plan, loop_plans)
    for flag in carried:
        model = _model(plan)
        model.orders = orders
        if set_after_own_wait(model, _carried_key, id(flag), flag.distance, flag.period):
            continue
        # a ring's drains need the trips; one id more only: the next set of an id is then a
        # pass later still, after its wait as a rule; the credit's set would drain its pipe
        # in every pass (chains 2 x 8: the store's pipe held 252 cycles, 715 a pass, not 543)
        if (flag.period <= flag.distance and body_runs(plan.block) is not None
                and _on_a_ring(plan, flag, extra_ids=0, orders=orders)):
            continue
        plan.flags.append(_Flag(flag.dst, flag.src, flag.wait_pipe, flag.set_pipe, 0, flag.period, around=True))


def _nested_orders(plan: _Plan, loop_plans: dict[Operation, _Plan]) -> dict[int, dict[str, frozenset[str]]]:
    """Per nested loop item, the orders between pipes it gives for every trip count: a
    carried flag of its body is primed right before it and drained right after it, so
    its set pipe's ops before the loop precede its wait pipe's after it (0 trips: the drain
    consumes the prime), when the loop's plan is emitted after this one (`_Emitter.emit`:
    its primes follow our waits, its drains precede our sets). A loop that runs at least
    once (`trip_count_bounds`) adds one pass of its body (`sync_plan.orders_within`).
    Anchored primes (set elsewhere) and cross-core flags are left out."""
    plans = list(loop_plans.values())
    orders: dict[int, dict[str, frozenset[str]]] = {}
    for idx, op in enumerate(plan.items):
        inner = loop_plans.get(op)
        if not isinstance(op, scf.ForOp) or inner is None:
            continue
        primed = [f for f in inner.flags if f.distance >= 1 and not f.cross_core and not f.around and f.anchor is None]
        known: dict[str, set[str]] = {}
        if plan in plans and plans.index(inner) > plans.index(plan):
            for f in primed:
                known.setdefault(f.wait_pipe, set()).add(f.set_pipe)
        if trip_count_bounds(op)[0] >= 1:
            keys = [(f.set_pipe, f.wait_pipe, (id(f), v)) for f in primed for v in primed_versions(f.distance, f.period)]
            for y, xs in orders_within(_model(inner), keys).items():
                known.setdefault(y, set()).update(xs)
        if known:
            orders[idx] = {y: frozenset(xs) for y, xs in known.items()}
    return orders


def merge_short_carried(plans: dict[Block, _Plan], flags: list[tuple[_Plan, _Flag]]) -> bool:
    """The carried flags of each short pair of a loop body (flags of it that found no
    event id) merged (`event_ids.merge_carried`) until the ids those went without are
    free, before its flags of one pass take turns (`_Emitter._ring`): a carried flag's
    consumer waits passes for it, one of the same pass at once. Whether any merged."""
    missing: dict[tuple[Block, str, str], int] = {}
    for plan, f in flags:
        if f.first_id is None and not f.cross_core and _is_loop_body(plan.block):
            key = (plan.block, f.set_pipe, f.wait_pipe)
            missing[key] = missing.get(key, 0) + f.period
    changed = False
    for (block, set_pipe, wait_pipe), excess in missing.items():
        plan = plans[block]
        carried = [f for f in plan.flags if (f.set_pipe, f.wait_pipe) == (set_pipe, wait_pipe) and f.distance > 0
                   and not f.cross_core and not f.around]
        items, _ = _timed_items(plan)
        as_carried = [Carried(f.src, f.dst, f.distance, f.period, items[f.src].start) for f in carried]
        gone: set[int] = set()
        for group in (g for g in merge_carried(as_carried, excess) if len(g) > 1):
            # the flag of the shortest distance stays (its ids, primes and drains): the
            # others' consumers wait for a later pass's set
            merged = reduce(Carried.merged_with, (as_carried[i] for i in group))
            kept = carried[min(group, key=lambda i: (as_carried[i].distance, -as_carried[i].ids))]
            kept.src, kept.dst = merged.src, merged.dst
            # primed after the latest producer before the loop that one of them stood for
            # (`_anchor_primes`): its set covers the earlier ones', and the merged flag is
            # waited no later than any of theirs (unseen seed 444 on the 910B: two V -> MTE3
            # flags, one anchored, kept apart, ran the pair short; its flags took turns
            # behind credits and a flag after the loop became a pipe_barrier[<PIPE_ALL>])
            kept.anchor = _latest_anchor(*(carried[i].anchor for i in group))
            gone.update(id(carried[i]) for i in group if carried[i] is not kept)
        plan.flags = [f for f in plan.flags if id(f) not in gone]
        changed = changed or bool(gone)
    return changed


def serial_runs_faster(func_op: func.FuncOp, chip: Chip) -> bool:
    """Whether a function of straight-line code (no loop or if) of one core runs faster
    with its hand-offs as pipe_barrier[<PIPE_ALL>]s (`ascend.barrier_sync`, as
    ascend-modulo-schedule marks a loop kept in program order) than with flags: its code
    replayed both ways (scheduling/realize.py, one pass in program order). Where one op
    runs at a time, a hand-off costs a set and a wait, two cycles, against a barrier's one:
    a gemm of one K step ran 830 cycles against barrier-all's 828 (unseen_cube seed 28)."""
    block = func_op.body.blocks.first
    if block is None or any(op.regions for op in block.ops):
        return False  # before the problem: a loop's task summarises all its accesses
    built = straight_line_problem(block, chip)
    if built is None:
        return False
    tasks, problem = built
    parts = [problem] if replays(problem, len(problem.tasks)) else _core_parts(tasks, problem)
    if not all(replays(part, len(part.tasks)) for part in parts):
        return False
    flags, serial = zip(*(_replayed_both_ways(part) for part in parts), strict=True)
    return all(b <= f for b, f in zip(serial, flags, strict=True)) and sum(serial) < sum(flags)


def _replayed_both_ways(problem: LoopProblem) -> tuple[int, int]:
    """Cycles of one pass of `problem`'s code in program order with flags and with its
    hand-offs as pipe_barrier[<PIPE_ALL>]s."""
    n = len(problem.tasks)
    in_order = list(range(n))  # starts that keep the code's order, all in one stage (ii n)
    return (loop_cycles(problem, n, n, in_order, {}, 1, gather=False),
            loop_cycles(problem, n, n, in_order, {}, 1, gather=False, barriers=True))


def _core_parts(tasks: list, problem: LoopProblem) -> list[LoopProblem]:
    """A MIX function's problem as one per core (each core's tasks and the scalar ones, the
    dependences and conflicts among them): the cores run apart, the parts split-mix-kernel
    makes, and hand off to each other by sync_block flags, which serial sync leaves as they
    are (gemm_relu of one K step: 1 cycle behind barrier-all with flags on both cores)."""
    cores = [op_core(t.op, "SCALAR") for t in tasks]
    parts = []
    for core in ("CUBE", "VECTOR"):
        index = {i: k for k, i in enumerate(i for i, c in enumerate(cores) if c in (core, "SCALAR"))}
        parts.append(replace(
            problem, tasks=[problem.tasks[i] for i in index],
            deps=[replace(d, src=index[d.src], dst=index[d.dst]) for d in problem.deps if d.src in index and d.dst in index],
            conflicts=[(index[a], index[b]) for a, b in problem.conflicts if a in index and b in index]))
    return parts
