"""What the code of a modulo schedule does when it runs (issue 18 item 1), IR-free.

A modulo schedule gives each task a start; the code keeps only its order. Each pipe
issues its ops in the body's start order from an in-order queue, as soon as the pipe,
the op's flags and the resources it shares allow: nothing in the code holds an op back
to its scheduled start. Where two pipes share a resource (`LoopProblem.conflicts`: the
HBM port of GM loads and stores) and both have an op ready, the pipe named first in
`hardware.PIPES` takes it (the simulator's arbitration, which the schedule does not
model). A schedule that leaves a gap on MTE2 for a store therefore does not run as
scheduled: the next load takes the port the moment it can, the stores slip behind it,
and a loop-carried flag set after the last store reaches the next loads later. On a
loop of 4 chains of 8 ops (ascend950) the schedule said 813 cycles an iteration; the
code ran at 911 = 4 loads + 4 stores on the port + the store drain (172) + set and wait.

`realize(p, body_tasks, start, versions, ...)` replays the code of the schedule,
iteration after iteration, under those rules and the sync the code has:

* a dependence from one pipe to another is a set_flag on the producer's pipe and a
  wait_flag on the consumer's: the set runs once every earlier op of its pipe has
  completed (later ops of the pipe queue behind it: the flag drain) and takes one
  cycle, the consumer starts one cycle after the set (its wait); one set follows each
  producer, or, for a pipe with a set point (`set_points.gathered`: a task named
  `set:<pipe>`), one set at the point for all its producers; where a pipe pair's flags
  need more event ids than the chip has, the sets and credit flags insert-sync then
  places (`code_flags.placed_sets`);
* a dependence on one pipe waits for the producer's completion (in-order pipe or
  pipe_barrier);
* a dependence of distance d (plus the versions of its buffer) is on iteration j - d;
  before the first iterations it holds (the flags set before the loop).

It returns the steady-state cycles per iteration and the starts of one steady iteration,
from which the schedule the code really has is written (`as_result`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import TypeVar

from ascend_mlir import hardware

from ascend_mlir.analysis import flag_sets, sync_plan

from . import code_flags
from .problem import Dep, LoopProblem

T = TypeVar("T")
_UNKNOWN = object()

# a cube op's feed (reference/latency-model.md): mmadL1 reads its L1 operands on MTE1 before
# the cube (M, the solver's pipe for it, whose ii includes the feed) computes, so a flag
# between it and an L1 writer is on MTE1 (M_MTE2 is spelled MTE1_MTE2, MTE2_M MTE2_MTE1),
# set once the feed is over rather than behind the cube: gemm_dyn's K loop replayed at
# 614 cycles an iteration with its MTE1 -> MTE2 set behind the cube, ran 520
_FED_PIPE, _FEED_PIPE = "M", "MTE1"
_L1_WRITERS = frozenset({"MTE2", "MTE3"})
# iterations replayed: enough for the stages and buffer versions of a loop to reach
# their steady state; the period is measured over the last half
MIN_ITERATIONS = 8
# trips `loop_cycles` replays one by one; beyond them it extrapolates the steady state
MAX_REPLAYED_TRIPS = 64


@dataclass(frozen=True)
class Realized:
    """The replayed code: cycles per iteration in the steady state (`ii`, rounded up)
    and the starts of the body's tasks in one steady iteration, the earliest at its
    offset within the II (`start`)."""

    ii: int
    start: list[int]


@dataclass
class _Item:
    """One entry of a pipe's queue: a body task or a set_flag."""

    task: int | None  # body task index; None for a set
    pipes: tuple[str, ...]
    ii: int
    latency: int
    # cycles after its start at which a set_flag behind it may run: the latest of its
    # releases to other pipes (an mmadL1's L1 operands are read by the MTE1 feed, long
    # before the cube completes), its latency when it releases nothing
    released: int = 0
    # a cube task's feed (`_FEED_PIPE`, among its pipes when > 0): the cycles it holds
    # that pipe, after which its L1 operands are read and a set there may run
    feed: int = 0


def kernel_shift(p: LoopProblem, body_tasks: int, ii: int, start: list[int], one_pass: bool = False) -> list[int]:
    """Per body task, how many iterations back the kernel's copy of it runs: its stage
    when the loop is emitted stage-skewed (pipeline_loops: some pipe has tasks of two
    stages), else 0 (the body in start order). `one_pass`: a schedule written as the
    timing of one-pass code (`ascend.one_pass`, code_timing.one_pass_schedule), whose
    stages say when its ops run, not which iteration the code runs them for: 0."""
    if one_pass:
        return [0] * body_tasks
    stage = [start[i] // ii for i in range(body_tasks)]
    seen: dict[str, int] = {}
    for i in range(body_tasks):
        for pipe in p.tasks[i].pipes:
            if seen.setdefault(pipe, stage[i]) != stage[i]:
                return stage
    return [0] * body_tasks


def _kernel_distance(d: Dep, versions: dict[str, int], shift: list[int]) -> int:
    """Dependence `d`'s distance in kernel iterations: its own, its buffer's versions
    and the stages between its ends."""
    return d.distance + (versions.get(d.buffer, 1) if d.buffer is not None else 0) + shift[d.dst] - shift[d.src]


def _code_distance(kernel: int, forward: bool, ring: bool) -> int:
    """The distance at which the loop's code syncs a dependence of `kernel` iterations
    (ascend-insert-sync's `_Planner._carried`). Where its source comes first in the body
    (`forward`: a stage-skewed kernel's stage-0 load before the stage-1 op that
    overwrites the load's buffer in its previous version, random kernel 120), a flag
    between two pipes of a loop of known trip count (`ring`) is carried on a ring of
    distance + 1 ids (at most 3 passes); otherwise the later op waits for this pass's
    earlier one (0). A dependence the other way is carried, at most 4 passes (with
    `ring`: a loop of known trip count; the steady state keeps it whole)."""
    if kernel <= 0:
        return 0
    if forward:
        return min(kernel, _MAX_VERSIONS - 1) if ring else 0
    return min(kernel, _MAX_VERSIONS) if ring else kernel


# insert-sync's MAX_VERSIONS: the most event ids one carried flag takes
_MAX_VERSIONS = 4


# a `_Wait.code` for a dependence the loop's flags order without one of its own
_NO_WAIT = -1
# the stage shift `_Code.shift` gives a straight-line set (a kernel's set: -1)
_STRAIGHT = -2


@dataclass(frozen=True)
class _Wait:
    """What an item waits for. In the loop: item `src` (the producer, or its set) of the
    kernel iteration `code` back, `after` cycles after its start. In straight-line code
    (a stage-skewed loop's prologue and epilogue), which insert-sync syncs dependence by
    dependence: the producer item `task` of the kernel iteration `exact` back,
    `exact_after` cycles after its start."""

    src: int
    after: int
    code: int
    task: int
    exact: int
    exact_after: int
    pipes: tuple[str, str]  # (producer's pipe, consumer's pipe)
    cross: bool


@dataclass
class _Code:
    """The body's code: its items in program order (tasks and sets), what each waits for,
    per set its releases (producer item, consumer item, kernel iterations between them),
    per item its stage shift (a set: -1), and per pipe pair the items that release to it."""

    items: list[_Item]
    waits: list[list[_Wait]]
    producers: dict[int, list[tuple[int, int, int]]]
    shift: list[int]
    releasing: dict[tuple[str, str], set[int]]
    conflicts: list[set[int]]  # per item, the items it shares a resource with (the HBM port)
    # per item, the wait_flags before it (each an instruction of a cycle on its pipe): one
    # per set it is the first consumer of
    wait_flags: list[int]
    # per item, the sets whose wait_flags stand before it, in the code's order: they run
    # one after another on its pipe, each once its set ran (a vector op waiting for an
    # MTE2 set and then an MTE3 one starts 2 cycles after the MTE2 set completes, not 1:
    # unseen seed 725 on the 910B, where that cycle gave the next pass's loads the HBM
    # port before this pass's store, replayed at 414 cycles a pass where the code ran 349)
    waited: list[list[int]]
    # per item, whether a pipe_barrier[<PIPE_ALL>] stands before it (`barriers`)
    barrier: list[bool] = field(default_factory=list)
    # False where insert-sync falls back to pipe_barrier[<PIPE_ALL>]s for want of event
    # ids (`code_flags.placed_sets`), which the replay does not model
    modelled: bool = True
    # per pipe pair, the (producer item, kernel distance) of the cross-pipe dependences
    # no pass of the loop waits for (`_NO_WAIT`): a stage-skewed loop's prologue waits
    # for them before the loop
    entering: dict[tuple[str, str], list[tuple[int, int]]] = field(default_factory=dict)
    # per straight-line set (`_STRAIGHT`: a stage-skewed loop's prologue and epilogue
    # may have a set after each producer; `_Replay._straight_flags` says which do), its
    # releases as in `producers`; the kernel's sets
    # stand in the loop's passes only (none without a skew and a trip count: then every
    # kernel iteration is a pass of the loop)
    straight: dict[int, list[tuple[int, int, int]]] = field(default_factory=dict)
    # per straight-line set, the pipe its flag is waited on
    straight_wait: dict[int, str] = field(default_factory=dict)


def _barriers(deps: list[Dep], pos: dict[int, int], code: list[int], cross: list[int]) -> set[int]:
    """The body positions a pipe_barrier[<PIPE_ALL>] stands before when every cross-pipe
    dependence is synced by one (as insert-sync plans them for an `ascend.barrier_sync`
    loop: shortest distance, earliest consumer first, each not yet ordered by a barrier
    between its ends gets one before its consumer)."""
    placed: set[int] = set()
    for n in sorted(cross, key=lambda n: (code[n], pos[deps[n].dst], -pos[deps[n].src])):
        src, dst, dist = pos[deps[n].src], pos[deps[n].dst], code[n]
        if dist == 0:
            done = any(src < b <= dst for b in placed)
        else:  # around the back edge: after the producer, or before the consumer passes later
            done = bool(placed) and (dist > 1 or any(b > src or b <= dst for b in placed))
        if not done:
            placed.add(dst)
    return placed


def _uncovered(p: LoopProblem, model: sync_plan.BlockModel, pos: dict[int, int], deps: list[Dep], code: list[int],
               cross: list[int]) -> list[int]:
    """The cross-pipe dependences (indices into `deps`) that get a flag in the loop: as
    ascend-insert-sync plans them (shortest distance, then earliest consumer first), each
    one the flags kept so far do not order already (`sync_plan.Coverage`, the pass's own
    happens-before model of the block: `model`, whose items are the body's in program
    order, the flags added to it) gets its set after its producer."""

    def rank(n: int) -> tuple:
        d = deps[n]
        return (code[n], pos[d.dst], -pos[d.src], *_flag_pipes(p, d))

    kept: list[int] = []
    planned: set[tuple] = set()
    run: sync_plan.Coverage | None = None
    for n in sorted(cross, key=rank):
        key = rank(n)
        if key in planned:  # the same flag (one more dependence between the two ops)
            kept.append(n)
            continue
        _, dst, src, set_pipe, wait_pipe = key
        run = run or sync_plan.Coverage(model)
        done = run.covered(-src, dst, set_pipe, wait_pipe, code[n])
        if done is None:
            run = sync_plan.Coverage(model)
            done = run.covered(-src, dst, set_pipe, wait_pipe, code[n])
        if done:
            continue
        run = None
        planned.add(key)
        kept.append(n)
        # its ids as insert-sync plans them: a carried flag whose producer comes first
        # in the body takes one more (`flag_sets.flag_ids`); on one id its wait would
        # match the same pass's set and call later dependences covered that insert-sync
        # flags (unseen seed 11: four MTE2 -> V flags more in the code than replayed)
        flag, period = len(planned), flag_sets.flag_ids(code[n], src > -dst)
        model.after.setdefault(-src, []).append(
            lambda copy, f=flag, m=period, a=set_pipe, b=wait_pipe: ("set", a, b, (f, copy % m)))
        model.before.setdefault(dst, []).append(
            lambda copy, f=flag, m=period, a=set_pipe, b=wait_pipe, k=code[n]: ("wait", a, b, (f, (copy - k) % m)))
    return sorted(kept)


def _distances(p: LoopProblem, deps: list[Dep], versions: dict[str, int], shift: list[int], pos: dict[int, int],
               trips: int | None) -> tuple[list[int], list[int]]:
    """Per dependence, its distance in kernel iterations and the one its code syncs it
    at (`_code_distance`; `_NO_WAIT` for one at least the loop's passes apart, which is
    none in the loop: insert-sync knows the count, and a stage-skewed loop's kernel runs
    S - 1 passes fewer)."""
    kernel = [_kernel_distance(d, versions, shift) for d in deps]
    code = [_code_distance(k, pos[d.src] < pos[d.dst], trips is not None and _crosses(p, d) and not _between_cores(p, d))
            for d, k in zip(deps, kernel, strict=True)]
    passes = None if trips is None else trips - max(shift, default=0)
    for n, k in enumerate(kernel):
        if passes is not None and 0 < passes <= k:
            code[n] = _NO_WAIT
    return kernel, code


def _items(p: LoopProblem, order: list[int], shift: list[int], deps: list[Dep], feeds: dict[int, int],
           sets_at: dict[int, list[tuple[int, str, str, int]]],
           straight_at: dict[int, list[tuple[int, str, str, int]]]):
    """The body's items in program order (each task, then the sets at its point, then
    the straight-line code's sets after it), per task its item, per set key its item and
    straight-line set, per item its stage shift (a set: -1, a straight-line set:
    `_STRAIGHT`)."""
    released: dict[int, int] = {}
    for d in deps:
        if p.tasks[d.src].pipes != p.tasks[d.dst].pipes:
            released[d.src] = max(released.get(d.src, 0), d.latency)
    items: list[_Item] = []
    item_of: dict[int, int] = {}
    set_of: dict[tuple[int, str, str, int], int] = {}
    straight_of: dict[tuple[int, str, str, int], int] = {}
    item_shift: list[int] = []
    for n, i in enumerate(order):
        t = p.tasks[i]
        item_of[i] = len(items)
        feed = feeds.get(i, 0)
        items.append(_Item(i, (*t.pipes, _FEED_PIPE) if feed else t.pipes, t.ii, t.latency, released.get(i, t.latency),
                           feed))
        item_shift.append(shift[i])
        for key in sets_at.get(n, ()):
            set_of[key] = len(items)
            items.append(_Item(None, (key[1],), 1, 1, 1))
            item_shift.append(-1)
        for key in straight_at.get(n, ()):
            straight_of[key] = len(items)
            items.append(_Item(None, (key[1],), 1, 1, 1))
            item_shift.append(_STRAIGHT)
    return items, item_of, set_of, straight_of, item_shift


def _between_cores(p: LoopProblem, d: Dep) -> bool:
    """Whether dependence `d` hands off between the cube and the vector core (a MIX loop's
    sync_block flag). Such a flag counts, so insert-sync carries none on a ring: one whose
    producer comes first in the body is waited in its own pass (`_Planner._carried`;
    unseen_cube seed 33, flash attention of 7 key blocks: replayed with a ring at 885 a
    pass, it ran 949, replayed without at 946). A pipe both cores have (MTE2, S) does
    not tell its core: such a dependence is taken as within one."""
    return {hardware.core_of_pipes(p.tasks[d.src].pipes), hardware.core_of_pipes(p.tasks[d.dst].pipes)} == {
        "CUBE", "VECTOR"}


def _crosses(p: LoopProblem, d: Dep) -> bool:
    """Whether dependence `d` is synced by a flag (between pipes, from one pipe)."""
    return p.tasks[d.src].pipes != p.tasks[d.dst].pipes and len(p.tasks[d.src].pipes) == 1


def _flag_pipes(p: LoopProblem, d: Dep) -> tuple[str, str]:
    """The pipes of dependence `d`'s flag, as insert-sync sets and waits it: its tasks'
    pipes, a cube op's feed (`_FEED_PIPE`) where the other end writes L1."""
    src, dst = p.tasks[d.src].pipes[0], p.tasks[d.dst].pipes[0]
    if src == _FED_PIPE and dst in _L1_WRITERS:
        return _FEED_PIPE, dst
    if dst == _FED_PIPE and src in _L1_WRITERS:
        return src, _FEED_PIPE
    return src, dst


def _feeds(p: LoopProblem, deps: list[Dep]) -> dict[int, int]:
    """Per cube task whose L1 operands an L1 writer of the loop refills, the cycles of its
    feed: when its reads are over (the latency of those write-after-read dependences)."""
    feed: dict[int, int] = {}
    for d in deps:
        if _flag_pipes(p, d)[0] == _FEED_PIPE:
            feed[d.src] = max(feed.get(d.src, 0), d.latency)
    return feed


def _remembered(p: LoopProblem, key: tuple, compute: Callable[[], T]) -> T:
    """`compute()`, asked once per problem and `key` (`LoopProblem.replayed`): what it
    answers depends on the problem and the key alone, and nothing changes what it returns."""
    known = p.replayed.get(key, _UNKNOWN)
    if known is _UNKNOWN:
        known = p.replayed[key] = compute()
    return known


def _schedule_key(body_tasks: int, ii: int, start: list[int], versions: dict[str, int]) -> tuple:
    return body_tasks, ii, tuple(start), tuple(sorted(versions.items()))


def _code(p: LoopProblem, body_tasks: int, ii: int, start: list[int], versions: dict[str, int],
          gather: bool = True, trips: int | None = None, barriers: bool = False, one_pass: bool = False,
          runtime: bool = False) -> _Code:
    """`_written_code`, once per problem and arguments."""
    return _remembered(p, ("code", *_schedule_key(body_tasks, ii, start, versions), gather, trips, barriers, one_pass,
                           runtime),
                       lambda: _written_code(p, body_tasks, ii, start, versions, gather, trips, barriers, one_pass,
                                             runtime))


def _written_code(p: LoopProblem, body_tasks: int, ii: int, start: list[int], versions: dict[str, int],
                  gather: bool, trips: int | None, barriers: bool, one_pass: bool, runtime: bool) -> _Code:
    """The body in program order (start order, a stage-skewed loop's tasks by their offset
    in the kernel) with its sets where `flag_sets.set_points` puts them (after the op of
    their point; with `gather` false, each after its producer, as insert-sync places them
    in a loop kept in program order), and what every item waits for. `trips`: the loop's
    (None: a loop of many). `barriers`: its cross-pipe hand-offs are pipe_barrier[<PIPE_ALL>]s
    instead (`_barriers`; a loop that is not stage-skewed). Sets where
    a pipe pair runs short of event ids: `code_flags.placed_sets`. `one_pass`: see
    `kernel_shift`. `runtime`: the code of a count known at run time (`trips` None), its
    prologue's and epilogue's straight-line sets kept (`_straight_releases`)."""
    shift = kernel_shift(p, body_tasks, ii, start, one_pass)
    at = [start[i] - shift[i] * ii for i in range(body_tasks)]
    order = sorted(range(body_tasks), key=lambda i: (at[i], i))
    pos = {i: n for n, i in enumerate(order)}
    deps = [d for d in p.deps if d.src < body_tasks and d.dst < body_tasks]
    feeds = _feeds(p, deps)
    # a fed cube op issues on its feed's pipe too, in insert-sync's items and its model of
    # the block (an mmadL1 issues on MTE1 and M): a set on MTE1 then stays before the next
    # cube op's feed (unseen_cube seed 24: the V load's set moved behind the QK step's
    # feed, replayed at 452 a pass where the code, set after the PV step, ran 426)
    issued_on = [frozenset((*p.tasks[i].pipes, _FEED_PIPE) if i in feeds else p.tasks[i].pipes) for i in order]
    timed = [flag_sets.Item(pipes, at[i], p.tasks[i].latency, p.tasks[i].ii)
             for pipes, i in zip(issued_on, order, strict=True)]
    kernel, code = _distances(p, deps, versions, shift, pos, trips)
    cross = [n for n, d in enumerate(deps) if _crosses(p, d) and code[n] != _NO_WAIT]
    placed = _barriers(deps, pos, code, cross) if barriers else set()
    model = sync_plan.BlockModel(issued_on, [i in feeds for i in order])
    flagged = [] if barriers else _uncovered(p, model, pos, deps, code, cross)
    releases = [flag_sets.Release(pos[deps[n].src], pos[deps[n].dst], *_flag_pipes(p, deps[n]), code[n])
                for n in flagged]

    def ordered(at: list[int], a: int, b: int, pipe_a: str, pipe_b: str, wrap: int) -> bool:
        return sync_plan.covered(code_flags.flag_model(model, releases, at), a, b, pipe_a, pipe_b, wrap)

    points, back, modelled, synced = code_flags.placed_sets(timed if gather else [flag_sets.Item(t.pipes) for t in timed], releases,
                                          ii if gather else None, p.events_per_pipe_pair, ordered,
                                          lambda synced: code_flags.again_of(model, synced),
                                          None if trips is None else trips - max(shift[:body_tasks], default=0))
    for n, q in zip(flagged, synced, strict=True):
        code[n] = q.distance  # a carried flag merged with one over fewer passes (code_flags)
    releases = synced
    handed, straight_releases = _straight_releases(p, deps, pos, shift, trips is not None or runtime)
    straight_at = code_flags.set_order(code_flags.planned_order(straight_releases, [r.src for r in straight_releases]))
    planned = code_flags.planned_order([*releases, *back], [*points, *(c.src for c in back)])
    items, item_of, set_of, straight_of, item_shift = _items(
        p, order, shift, deps, feeds, code_flags.set_order(planned), straight_at)
    producers: dict[int, list[tuple[int, int, int]]] = {}
    releasing: dict[tuple[str, str], set[int]] = {}
    set_item: dict[int, int] = {}
    wait_flags = [0] * len(items)
    for n, r, point in zip(flagged, releases, points, strict=True):
        set_item[n] = set_of[code_flags.set_key(r, point)]
        producers.setdefault(set_item[n], []).append((item_of[deps[n].src], item_of[deps[n].dst], max(0, kernel[n])))
        releasing.setdefault((r.set_pipe, r.wait_pipe), set()).add(item_of[deps[n].src])
    straight = {straight_of[code_flags.set_key(r, r.src)]: [] for r in straight_releases}
    straight_wait = {straight_of[code_flags.set_key(r, r.src)]: r.wait_pipe for r in straight_releases}
    for n, r in zip(handed, straight_releases, strict=True):
        straight[straight_of[code_flags.set_key(r, r.src)]].append(
            (item_of[deps[n].src], item_of[deps[n].dst], max(0, kernel[n])))
    waits: list[list[_Wait]] = [[] for _ in items]
    walls = {item_of[order[b]] for b in placed}
    fenced = _pipe_barriers(p, deps, code, set_of, item_of, walls)
    for k in fenced:  # the pipe_barrier: one cycle of its pipe before the consumer
        wait_flags[k] += 1
    for c in back:  # credit flags (code_flags): no dependence of the problem's
        src, dst, key = item_of[order[c.src]], item_of[order[c.dst]], code_flags.set_key(c, c.src)
        producers.setdefault(set_of[key], []).append((src, dst, c.distance))
        waits[dst].append(_Wait(set_of[key], 2, c.distance, src, c.distance, items[src].released + 2,
                                (c.set_pipe, c.wait_pipe), True))
    waited = code_flags.waited_sets(producers, set_of, planned, len(items))
    for k, sets in enumerate(waited):  # one wait_flag per set, before its first consumer
        wait_flags[k] += len(sets)
    for n, d in enumerate(deps):
        waits[item_of[d.dst]].append(_dependence_wait(p, d, item_of, items[item_of[d.src]], set_item.get(n), code[n],
                                                      max(0, kernel[n]), item_of[d.dst] in fenced))
    conflicts: list[set[int]] = [set() for _ in items]
    for a, b in p.conflicts:
        if a < body_tasks and b < body_tasks:
            conflicts[item_of[a]].add(item_of[b])
            conflicts[item_of[b]].add(item_of[a])
    barrier = [False] * len(items) if placed else []
    for b in walls:
        barrier[b] = True
    return _Code(items, waits, producers, item_shift, releasing, conflicts, wait_flags, waited, barrier,
                 entering=_entering(p, deps, kernel, code, item_of), modelled=modelled, straight=straight,
                 straight_wait=straight_wait)


def _dependence_wait(p: LoopProblem, d: Dep, item_of: dict[int, int], producer: _Item, set_item: int | None,
                     code: int, kernel: int, fenced: bool) -> _Wait:
    """What dependence `d`'s consumer waits for: its flag's set (`set_item`), in
    straight-line code its producer's release; on one pipe the producer's completion,
    and the pipe_barrier's cycle where one stands before the consumer (`fenced`)."""
    src = item_of[d.src]
    pipes = _flag_pipes(p, d)
    if set_item is not None:
        return _Wait(set_item, 2, code, src, kernel, producer.released + 2, pipes, True)
    if _crosses(p, d):  # none in the loop (covered, or no next pass): straight-line code waits
        return _Wait(src, 0, _NO_WAIT, src, kernel, producer.released + 2, pipes, True)
    after = d.latency + fenced
    return _Wait(src, after, code, src, kernel, after, pipes, False)


def _straight_releases(p: LoopProblem, deps: list[Dep], pos: dict[int, int], shift: list[int],
                       straight_line: bool) -> tuple[list[int], list[flag_sets.Release]]:
    """The hand-offs between pipes (indices into `deps`) whose sets a stage-skewed loop's
    prologue and epilogue may have, and those releases (a set after each producer per
    pipe pair, where `_Replay._straight_flags` finds one needed): straight-line code,
    whose sets insert-sync puts right after their producers (no II to gather them by),
    or leaves out where a later one orders them. Random kernel 120's prologue drains MTE2 between
    its two loads (run 1709 cycles; with the kernel's points replayed 1553); a hand-off
    no pass of the loop flags gets one too (random kernel 542, one kernel pass: its
    prologue's load -> vector op, a stage apart). None without a skew (no prologue) or
    `straight_line` (the steady state of a loop of many: none to replay them by). A count
    known at run time has them too: narrow seed 252 on the 950, the anchored prime set
    right after the prologue's three loads drained MTE2 before the first pass's loads,
    103 cycles a run that the replay, without it, left out."""
    if not straight_line or not any(shift):
        return [], []
    handed = [n for n, d in enumerate(deps) if _crosses(p, d)]
    return handed, [flag_sets.Release(pos[deps[n].src], pos[deps[n].dst], *_flag_pipes(p, deps[n])) for n in handed]


def _pipe_barriers(p: LoopProblem, deps: list[Dep], code: list[int], set_of: dict[tuple[int, str, str, int], int],
                   item_of: dict[int, int], walls: set[int]) -> set[int]:
    """The items a pipe_barrier of their pipe stands before: as insert-sync plans them
    (shortest distance, earliest consumer first), each dependence on one pipe the chip
    does not keep in order (`LoopProblem.barrier_pipes`: the 910B's V, the DMA pipes)
    gets one before its consumer unless a set of that pipe between its ends (which
    drains the pipe), a barrier already placed or a pipe_barrier[<PIPE_ALL>] (`walls`)
    orders it. Each is an instruction of a cycle on its pipe: random kernel 531 on the
    910B, 1x16 tiles, a barrier between every two vector ops of a chain (replayed 3147
    without them, ran 3286). `set_of`: the loop's own sets and their items (not the
    prologue's and epilogue's straight-line sets, which the loop's passes do not run)."""
    if not p.barrier_pipes:
        return set()
    drains: dict[str, list[int]] = {}  # per pipe, the items of its sets
    for (_, pipe, _, _), k in set_of.items():
        drains.setdefault(pipe, []).append(k)
    fences: dict[str, set[int]] = {}
    same = [n for n, d in enumerate(deps) if code[n] != _NO_WAIT and len(p.tasks[d.src].pipes) == 1
            and p.tasks[d.src].pipes == p.tasks[d.dst].pipes and p.tasks[d.src].pipes[0] in p.barrier_pipes]
    for n in sorted(same, key=lambda n: (code[n], item_of[deps[n].dst], -item_of[deps[n].src])):
        pipe, src, dst = p.tasks[deps[n].src].pipes[0], item_of[deps[n].src], item_of[deps[n].dst]
        before = fences.setdefault(pipe, set()) | walls  # barriers: before their item
        if code[n] == 0 and src < dst:
            done = any(src < k < dst for k in drains.get(pipe, ())) or any(src < b <= dst for b in before)
        else:  # around the back edge
            done = any(k > src or k < dst for k in drains.get(pipe, ())) or any(b > src or b <= dst for b in before)
        if not done:
            fences[pipe].add(dst)
    return {k for ks in fences.values() for k in ks}


def _entering(p: LoopProblem, deps: list[Dep], kernel: list[int], code: list[int],
              item_of: dict[int, int]) -> dict[tuple[str, str], list[tuple[int, int]]]:
    """Per pipe pair, the (producer item, kernel distance) of its cross-pipe dependences
    that no pass of the loop waits for (`_Code.entering`)."""
    entering: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for n, d in enumerate(deps):
        if code[n] == _NO_WAIT and _crosses(p, d):
            entering.setdefault(_flag_pipes(p, d), []).append((item_of[d.src], kernel[n]))
    return entering


class _Replay:
    """The event loop of the replay: per-pipe queues over `iterations` kernel iterations
    of the body; with `trips`, the code of a loop of that many (a stage-skewed one's
    prologue and epilogue, kernel iterations before `first` and after `last`, hold only
    the ops of iterations that exist and are straight-line code)."""

    def __init__(self, code: _Code, iterations: int, trips: int | None = None):
        self.code = code
        self.items, self.n = code.items, len(code.items)
        self.iterations = iterations
        skew = max(code.shift, default=0)
        self.first = skew if trips is not None else 0
        self.last = trips - 1 if trips is not None else iterations
        self.trips = trips
        self.straight_sets, self.covering = self._straight_flags() if trips is not None and skew else (set(), {})
        self.pipes = sorted({pp for item in self.items for pp in item.pipes}, key=hardware.PIPES.index)
        # per pipe, the (kernel iteration, item) it issues, in order
        self.queue = {pp: [(it, n) for it in range(iterations) for n, item in enumerate(self.items)
                           if pp in item.pipes and self.present(it, n)] for pp in self.pipes}
        self.conflicts = code.conflicts
        self.started: dict[tuple[int, int], int] = {}
        self.head = dict.fromkeys(self.pipes, 0)  # per pipe: index into its queue
        self.pipe_free = dict.fromkeys(self.pipes, 0)
        self.inflight: dict[str, list[int]] = {pp: [] for pp in self.pipes}  # completion times
        # per item, when the resource it shares is free: a running max of conflicting holds
        self.port_free_at = [0] * self.n
        # `_ready`'s answers, and how far it got through the waits of a head not ready yet
        self.ready: dict[tuple[int, int], int] = {}
        self.partial: dict[tuple[int, int], tuple[int, int, dict[int, int]]] = {}
        # the cycle the scalar unit issued an item a pipe_barrier[<PIPE_ALL>] stands before
        self.issued: dict[tuple[int, int], int] = {}
        self.steady_waits, self.reach = self._steady_waits()

    def _steady_waits(self) -> tuple[list[list[_Wait]], list[int]]:
        """Per item, its waits with those another one implies left out, for a pass of the
        loop whose producers all run in passes of the loop too (`reach`: the most passes
        back one of them is). A pipe issues in queue order, pass by pass and item by item,
        so a wait on an earlier producer of the same pipe, no more cycles after it than a
        later one's, is over once that one's is (a loop of 256 ops: 93 waits an item,
        most on the same few pipes)."""
        pruned: list[list[_Wait]] = []
        reach: list[int] = []
        for waits in self.code.waits:
            kept = [w for w in waits if w.code == _NO_WAIT]
            looped = [w for w in waits if w.code != _NO_WAIT]
            latest: dict[str, int] = {}  # per pipe, the most cycles after a later producer
            for w in sorted(looped, key=lambda w: (-w.code, w.src, w.after), reverse=True):
                pipe = self.items[w.src].pipes[0]
                if pipe in latest and latest[pipe] >= w.after:
                    continue
                latest[pipe] = w.after
                kept.append(w)
            pruned.append(kept)
            reach.append(max((w.code for w in looped), default=0))
        return pruned, reach

    def present(self, it: int, n: int) -> bool:
        """Whether item n runs in kernel iteration `it`: a body task when its own
        iteration (`it` less its stage shift) is one of the loop's; a kernel set in the
        loop's passes; a straight-line set in the prologue and epilogue when one of its
        producers runs and that release's consumer does too (the epilogue sets no flag
        for a next iteration)."""
        if self.trips is None:  # the steady state: no straight-line code
            return self.code.shift[n] != _STRAIGHT
        if self.code.shift[n] >= 0:
            return 0 <= it - self.code.shift[n] < self.trips
        if self.first <= it <= self.last:
            return self.code.shift[n] != _STRAIGHT
        if self.code.shift[n] != _STRAIGHT:
            return False  # the kernel's set points: not in straight-line code
        return (it, n) in self.straight_sets

    def _runs(self, it: int, n: int) -> bool:
        """Whether body task n runs in kernel iteration `it` (its own iteration exists)."""
        return 0 <= it - self.code.shift[n] < self.trips  # type: ignore[operator]

    def _straight_flags(self) -> tuple[set[tuple[int, int]], dict[tuple, tuple[int, int]]]:
        """The sets of the prologue and epilogue (straight-line code, with the loop one item
        of it), as insert-sync plans that block: its hand-offs in program order of the
        consumer (the latest producer first), each not ordered by a set of its pipe pair
        already placed (after the producer or a later op of its pipe, waited before the
        consumer) gets a set right after its producer, waited before its consumer. So the
        hand-offs of the prologue's loads to the loop take one set after the last load
        (the prime insert-sync anchors there), not one after each that drains MTE2 before
        the next load issues (unseen seed 14, 10 loads: the fill replayed at 3767 cycles,
        ran 2951). Returns the (kernel iteration, set item)s that run and, per hand-off
        (producer's iteration and item, consumer's, pipe pair), the set it waits for."""
        code, first, last = self.code, self.first, self.last
        tasks = [n for n in range(self.n) if code.shift[n] >= 0]
        outside = [*range(first), *range(last + 1, self.iterations)]
        order = [(it, n) for it in range(first) for n in tasks if self._runs(it, n)]
        loop_at = len(order)
        order += [(it, n) for it in range(last + 1, self.iterations) for n in tasks if self._runs(it, n)]
        position = {key: k for k, key in enumerate(order)}
        releases = []
        for s, handed in code.straight.items():
            pair = (self.items[s].pipes[0], code.straight_wait[s])
            for src, dst, exact in handed:
                for j in outside:
                    if not self._runs(j, src):
                        continue
                    c = j + exact
                    # the loop is one item whose accesses span every pass: a prologue
                    # producer hands off to it whatever iteration its own consumer is of
                    # (random kernel 577, 2 trips: the prologue's last store drained MTE3
                    # before the loop's first store, 2278 cycles, replayed at 2100)
                    at = loop_at if j < first and first <= last else None
                    if self._runs(c, dst) and not first <= c <= last:
                        at = position[(c, dst)] if at is None else min(at, position[(c, dst)])
                    if at is not None and at > position[(j, src)]:
                        releases.append((at, -position[(j, src)], pair, j, src, s, c, dst))
        placed: list[tuple[int, int, tuple[str, str], tuple[int, int]]] = []  # point, wait, pair, set
        covering: dict[tuple, tuple[int, int]] = {}
        for at, before, pair, j, src, s, c, dst in sorted(releases):
            got = next((flag for point, wait, fpair, flag in placed
                        if fpair == pair and -before <= point < at and wait <= at), None)
            if got is None:
                got = (j, s)
                placed.append((-before, at, pair, got))
            covering[(j, src, c, dst, pair)] = got
        return {flag for *_, flag in placed}, covering

    def _head(self, pipe: str) -> tuple[int, int] | None:
        k = self.head[pipe]
        q = self.queue[pipe]
        return q[k] if k < len(q) else None

    def _after(self, j: int, n: int, after: int) -> int | None:
        s = self.started.get((j, n))
        return None if s is None else s + after

    def _wait_at(self, it: int, n: int, w: _Wait) -> int | None:
        """The cycle wait `w` of item n of kernel iteration `it` lets it start at (0: no
        wait; None: not known yet)."""
        if self.first <= it <= self.last:
            if w.code != _NO_WAIT and it - w.code >= self.first:
                return self._after(it - w.code, w.src, w.after)
            if not (w.cross and self.first > 0):
                return 0
            # a producer before the loop's passes (in the prologue, or of an iteration the
            # code has not), and a loop that is one item of the code around it, whose
            # accesses span every pass (all versions of a buffer). A hand-off no pass of
            # the loop waits for (`_NO_WAIT`): insert-sync waits for the pair's prologue
            # producers before the loop, whatever iteration they are of (random kernel 752,
            # 3 trips: the first pass's loads waited for the prologue's store, 1121 cycles,
            # replayed at 575; random kernel 153: the next tile's loads for the prologue's
            # last V op). A carried one: the pair's prime, which insert-sync anchors right
            # after the prologue's last producer (random kernel 120: the first pass's load
            # after the prologue's vsqrt). Either way after the dependence's own producer
            # where the prologue has it.
            j = it - w.exact
            own = self._after(j, w.task, w.exact_after) if 0 <= j < self.first and self.present(j, w.task) else 0
            entry = self._before_loop(w.pipes) if w.code == _NO_WAIT else self._prime(w)
            return None if entry is None or own is None else max(entry, own)
        j = it - w.exact
        if it > self.last and self.first <= self.last and not j > self.last:
            # an epilogue op after a producer of the loop's passes; or of an iteration no
            # pass runs, whose op the loop has all the same: insert-sync sees the loop as
            # one item whose accesses span every pass (all versions of a buffer), and sets
            # the flag after it (random kernel 768, 2 trips, 3 stages: the epilogue's first
            # vector op waited for the loop's last store, 925 cycles, replayed at 666)
            return self._loop_end(w)
        if j < 0 or not self.present(j, w.task):
            return 0
        flag = self.covering.get((j, w.task, it, n, w.pipes)) if w.cross else None
        if flag is not None:
            return self._after(*flag, 2)
        return self._after(j, w.task, w.exact_after)

    def _prime(self, w: _Wait) -> int | None:
        """A loop-carried flag's wait in the loop's first passes: its prime, which
        insert-sync sets right after the prologue's last producer of the pipe pair
        (`_anchor_primes`), else before everything (no wait). The producers of the pair's
        dependences no pass of the loop waits for (`_Code.entering`) count too: insert-sync
        anchors their primes to the pair's flag (random kernel 120: the first pass's first
        load waited for the prologue's last vsqrt, whose buffer the second load refills)."""
        first = self.first
        return self._last_release(
            [*((it, n) for it in range(first) for n in self.code.releasing.get(w.pipes, ())),
             *((j, src) for src, exact in self.code.entering.get(w.pipes, ()) for j in range(max(0, first - exact), first))])

    def _before_loop(self, pipes: tuple[str, str]) -> int | None:
        """The wait before a stage-skewed loop for the prologue's producers of the pipe
        pair that no pass of the loop waits for (`_Code.entering`): once the last of
        them released."""
        return self._last_release((j, src) for src, exact in self.code.entering.get(pipes, ())
                                  for j in range(max(0, self.first - exact), self.first))

    def _last_release(self, producers: Iterable[tuple[int, int]]) -> int | None:
        """When the last of `producers` (iteration, item) present in the code released its
        flag (0 if none is; None if one has not issued yet)."""
        latest = 0
        for it, n in producers:
            if self.present(it, n):
                at = self._after(it, n, self.items[n].released + 2)
                if at is None:
                    return None
                latest = max(latest, at)
        return latest

    def _loop_end(self, w: _Wait) -> int | None:
        """An epilogue op's wait for the loop's producer: the set after the loop, once
        every op of the producer's pipe in the loop's last pass completed."""
        latest = 0
        for n, item in enumerate(self.items):
            if item.task is not None and w.pipes[0] in item.pipes and self.present(self.last, n):
                at = self._after(self.last, n, item.released + (2 if w.cross else 0))
                if at is None:
                    return None
                latest = max(latest, at)
        return latest

    def _ready(self, it: int, n: int) -> int | None:
        """The earliest cycle item n of iteration `it` may start at (None: not yet known).

        Asked again every time the event loop moves on, so what it learns is kept: once
        the item heads each of its pipes nothing else issues there before it, so the
        pipes' part stays as it is, and a wait once answered does not change (the
        producers' starts are final); a call resumes at the first wait not answered yet
        (a set with 50 releases was asked all of them each step: 10M waits on a loop of
        256 ops)."""
        key = (it, n)
        known = self.ready.get(key)
        if known is not None:
            return known
        item = self.items[n]
        for pp in item.pipes:
            if self._head(pp) != key:
                return None
        resumed = self.partial.get(key)
        waited = self.code.waited[n]  # the sets whose wait_flags stand before it
        if resumed is None:
            at = max(self.pipe_free[pp] for pp in item.pipes) + self.code.wait_flags[n]
            if item.task is None:  # a set: every earlier op of its pipe completed
                at = max([at, *self.inflight[item.pipes[0]]])
            drained = self._barrier(it, n)
            if drained is None:
                return None
            at, k, arrived = max(at, drained), 0, {}
        else:
            k, at, arrived = resumed
        started, first = self.started, self.first
        steady = first <= it <= self.last
        waits = self.steady_waits[n] if steady and it - self.reach[n] >= first else self.code.waits[n]
        while k < len(waits):
            w = waits[k]
            j = it - w.code
            if steady and w.code != _NO_WAIT and j >= first:
                # `_wait_at`'s common case inline: a producer of a pass of the loop
                s = started.get((j, w.src))
                got = None if s is None else s + w.after
            else:
                got = self._wait_at(it, n, w)
            if got is None:
                self.partial[key] = (k, at, arrived)
                return None
            if got > at:
                at = got
            if w.cross and w.src in waited:
                arrived[w.src] = max(arrived.get(w.src, 0), got - 1)  # its set ran
            k += 1
        self.ready[key] = at = self._after_waits(n, at, arrived)
        return at

    def _after_waits(self, n: int, at: int, arrived: dict[int, int]) -> int:
        """`at`, or later where item n's wait_flags (`_Code.waited`), one after another on
        its pipe after the pipe and its barriers, each once its set ran (`arrived`), end
        later."""
        waited = self.code.waited[n]
        if len(waited) < 2:
            return at  # one wait: its set's start + 2, as `at` has it
        queued = max(self.pipe_free[pp] for pp in self.items[n].pipes) + self.code.wait_flags[n] - len(waited)
        for s in waited:
            queued = max(queued, arrived.get(s, 0)) + 1
        return max(at, queued)

    def _barrier(self, it: int, n: int) -> int | None:
        """The cycle the pipe_barrier[<PIPE_ALL>]s before item n of kernel iteration `it`
        let it start at: the scalar unit issues nothing after a barrier before every op
        issued before it completed (one cycle to issue it); None while one has not."""
        if not self.code.barrier:
            return 0
        size = len(self.items)
        at, o, behind = 0, it * size + n, 0
        for earlier in range(o - 1, -1, -1):
            j, m = divmod(earlier, size)
            s = self.started.get((j, m))
            present = self.present(j, m)
            if s is None and present and (self.code.barrier[n] or self.code.barrier[m]):
                return None
            if s is not None and self.code.barrier[n]:
                at = max(at, s + self.items[m].latency + 1)
            behind += present
            if self.code.barrier[m]:
                # the barrier before it: everything earlier drained then, and the scalar
                # unit issued m and each item after it a cycle after the one before (a
                # straight-line kernel's load three items after a barrier ran 3 cycles
                # after it, replayed 1: random straight-line kernel 167 on the 950)
                at = max(at, s or 0, self.issued.get((j, m), 0) + behind)
                break
        if self.code.barrier[n]:
            self.issued[(it, n)] = at
        return at

    def _port_free(self, n: int, now: int) -> int:
        free = self.port_free_at[n]
        return free if free > now else now

    def run(self) -> dict[tuple[int, int], int]:
        now, total = 0, len({entry for q in self.queue.values() for entry in q})
        started = self.started
        # per pipe, its head and the count of starts when `_ready` could not answer: only a start changes that
        unknown: dict[str, tuple[tuple[int, int], int]] = {}
        while len(started) < total:
            progressed, next_at = False, None
            for pp in self.pipes:  # hardware.PIPES order: the first pipe takes a shared resource
                head = self._head(pp)
                if head is None or head in started or unknown.get(pp) == (head, len(started)):
                    continue
                it, n = head
                at = self._ready(it, n)
                if at is None:
                    unknown[pp] = (head, len(started))
                    continue
                at = self._port_free(n, at)
                if at > now:
                    next_at = at if next_at is None else min(next_at, at)
                    continue
                self._start(it, n, now)
                progressed = True
            if progressed:
                continue
            if next_at is None:
                raise ValueError("the replayed code waits for nothing that comes (a dependence "
                                 "on a later op of the same iteration)")
            now = next_at
        return self.started

    def _start(self, it: int, n: int, now: int) -> None:
        item = self.items[n]
        self.started[(it, n)] = now
        for pp in item.pipes:
            held = item.feed if item.feed and pp == _FEED_PIPE else None
            self.head[pp] += 1
            self.pipe_free[pp] = now + (item.ii if held is None else held)
            done = [c for c in self.inflight[pp] if c > now]
            done.append(now + (item.released if held is None else held))
            self.inflight[pp] = done
        if self.conflicts[n]:
            busy, free = now + item.ii, self.port_free_at
            for m in self.conflicts[n]:
                if free[m] < busy:
                    free[m] = busy


def realize(p: LoopProblem, body_tasks: int, ii: int, start: list[int], versions: dict[str, int],
            iterations: int | None = None, gather: bool = True, one_pass: bool = False,
            trips: int | None = None) -> Realized:
    """The code of the schedule `start` (at `ii`) of `p` (its first `body_tasks` tasks are ops;
    set points after them place the sets, drain reservations are not code) replayed
    (module doc): cycles per iteration in the steady state and one steady iteration's
    starts. `gather`: see `_code` (false for a loop kept in program order). A forward
    loop-carried flag waits in its own pass here (`_code_distance`: no trip count), where
    insert-sync carries it on a ring of ids when the count is known: replaying the ring
    here too made random kernels 22 and 28 slower (3359 -> 4184, 3908 -> 4098 cycles:
    the skewed code replayed faster than its one-stage form and was kept, and ran slower).
    `trips`: the loop's known trip count, whose rings the replay then carries (the II a
    schedule's code is written at, not the choice between forms)."""
    run = _remembered(p, ("realize", *_schedule_key(body_tasks, ii, start, versions), iterations, gather, one_pass,
                          trips),
                      lambda: _replayed_steady_state(p, body_tasks, ii, start, versions, iterations, gather, one_pass,
                                                     trips))
    return Realized(run.ii, list(run.start))  # a list of its own to each caller


def _replayed_steady_state(p: LoopProblem, body_tasks: int, ii: int, start: list[int], versions: dict[str, int],
                           iterations: int | None, gather: bool, one_pass: bool, trips: int | None) -> Realized:
    code = _code(p, body_tasks, ii, start, versions, gather, trips, one_pass=one_pass)
    items = code.items
    stages = max(start[:body_tasks], default=0) // ii + 1
    deepest = max([1, *versions.values()]) + max((d.distance for d in p.deps), default=0)
    n_it = iterations or max(MIN_ITERATIONS, 2 * (deepest + 1), 2 * stages + 4)
    body = [n for n, item in enumerate(items) if item.task is not None]
    while True:
        started = _Replay(code, n_it).run()
        half, last = n_it // 2, n_it - 1
        period = _period(started, body, half, last)
        # steady once the last quarter runs at the second half's period: a pipe may run
        # ahead of the binding one for passes until its flags' ids hold it, and only then
        # take the shared port when the other needs it (unseen seed 17 on four_ids: 425
        # cycles a pass for 8 passes, 600 from the tenth, replayed over 8 at 531)
        later = _period(started, body, last - n_it // 4, last)
        steady = later * 100 <= period * 101 and _in_step(started, body, half, last - n_it // 4, last, later)
        if iterations is not None or steady or n_it >= MAX_REPLAYED_TRIPS:
            period = period if steady else later
            break
        n_it *= 2
    first = min(started[(half, n)] for n in body)
    base = first - first % period if period else first
    out = [0] * body_tasks
    for n in body:
        out[items[n].task] = started[(half, n)] - base  # type: ignore[index]
    return Realized(period, out)


def _in_step(started: dict[tuple[int, int], int], body: list[int], half: int, quarter: int, last: int,
             period: int) -> bool:
    """Whether the body's items drift apart no more than 1% of `period` a pass: how far
    apart they move from pass `half` to `last`, beyond how far from pass `quarter` to
    `last` (the last passes' own spread, which nothing after them holds back, cancels).
    Where one pipe runs ahead of another, the slowest item's period is not yet the
    loop's (unseen seed 65 on four_ids: the loads ran at 412 cycles a pass and the stores
    at 475 for seven passes, then everything at 565 once the loads' ids held them and
    they took the HBM port from the stores; replayed over ten passes, the stores' 475
    looked steady and 514 was written)."""
    def spread(first: int) -> int:
        moved = [started[(last, n)] - started[(first, n)] for n in body]
        return max(moved) - min(moved)
    return spread(half) - spread(quarter) <= (quarter - half) * max(2, period // 100)


def _period(started: dict[tuple[int, int], int], body: list[int], first: int, last: int) -> int:
    """Cycles per pass from pass `first` to pass `last` of a replay (the slowest item's)."""
    return -(-max(started[(last, n)] - started[(first, n)] for n in body) // (last - first))


def loop_cycles(p: LoopProblem, body_tasks: int, ii: int, start: list[int], versions: dict[str, int],
                trips: int, gather: bool = True, barriers: bool = False, one_pass: bool = False,
                runtime: bool = False) -> int:
    """Cycles the code of the schedule `start` runs `trips` iterations in (module doc):
    from the first op's issue to the last op's completion, the fill and drain of a
    pipelined loop included (not the flags primed before the loop and drained after it).
    `gather`, `barriers`: see `_code`. A stage-skewed loop (`kernel_shift`) runs as ascend-pipeline-loops
    emits it: kernel iterations 0 .. trips + S - 2, each with the ops of the iterations that
    exist (the prologue and epilogue are the first and last S - 1 of them). `runtime`: the
    code of a loop whose count is known at run time only (no rings of ids, `_code`'s
    trips None), run `trips` times: the code of a known count of one has no carried flag,
    and replayed one trip of unseen seed 659's runtime loop at 719 cycles, which ran 1369."""
    return _remembered(p, ("cycles", *_schedule_key(body_tasks, ii, start, versions), trips, gather, barriers, one_pass,
                           runtime),
                       lambda: _replayed_cycles(p, body_tasks, ii, start, versions, trips, gather, barriers, one_pass,
                                                runtime))


def _replayed_cycles(p: LoopProblem, body_tasks: int, ii: int, start: list[int], versions: dict[str, int],
                     trips: int, gather: bool, barriers: bool, one_pass: bool, runtime: bool) -> int:
    code = _code(p, body_tasks, ii, start, versions, gather, None if runtime else max(trips, 1), barriers, one_pass,
                 runtime)
    skew = max(code.shift, default=0)

    def replayed(iterations: int) -> int:
        started = _Replay(code, iterations + skew, iterations).run()
        return max((at + code.items[n].latency for (_, n), at in started.items()), default=0)

    if trips <= MAX_REPLAYED_TRIPS:
        return replayed(max(trips, 1))
    # a long loop (2**40 trips in test_dsl_errors) is not replayed trip by trip: its
    # steady state, measured over the second half of the replayed trips, repeats
    half = MAX_REPLAYED_TRIPS // 2
    whole = replayed(MAX_REPLAYED_TRIPS)
    period = -(-(whole - replayed(half)) // (MAX_REPLAYED_TRIPS - half))
    return whole + (trips - MAX_REPLAYED_TRIPS) * period


def sync_modelled(p: LoopProblem, body_tasks: int, ii: int, start: list[int], versions: dict[str, int],
                  gather: bool = True) -> bool:
    """Whether the replay models the sync of this schedule's code: False where a pipe pair
    has too few event ids for insert-sync's gathered sets and rings, and it puts
    pipe_barrier[<PIPE_ALL>]s in (wide random kernel 0 in program order: replayed as
    faster than its pipelined code, ran 33873 cycles against 19199)."""
    return _code(p, body_tasks, ii, start, versions, gather).modelled


def replays(p: LoopProblem, body_tasks: int) -> bool:
    """Whether `realize` models the code of this loop: a loop of the vector core, or one of
    the cube core's ops (a K loop). Not modelled: a loop with ops of both cores (a MIX
    kernel's, before split-mix-kernel), which hand off by sync_block flags (flash
    attention, unseen_cube seeds 15, 24 and 51: rewritten to their replayed timing, they ran
    4-20% slower; `both_cores` says where the replay only weighs the schedules and gives
    the II written), and a cube loop around a nested loop, a task on all its pipes whose inner
    timing (the next tile's loads under the last K steps) the replay does not see (a
    nested gemm of 8 K steps: solver 16822, replayed 18046, ran 16505 a tile)."""
    cube, vector = _cores_used(p, body_tasks)
    return not cube or not vector and all(len(t.pipes) == 1 for t in p.tasks[:body_tasks])


def both_cores(p: LoopProblem, body_tasks: int) -> bool:
    """Whether the loop has ops of the cube and of the vector core (a MIX kernel's loop,
    before split-mix-kernel): `replays` is false for it, its code is replayed only to
    weigh (modulo_schedule `_mix_code_cycles`, `_both_cores_as_run`)."""
    cube, vector = _cores_used(p, body_tasks)
    return cube and vector


def _cores_used(p: LoopProblem, body_tasks: int) -> tuple[bool, bool]:
    """Whether the loop's tasks use a pipe only the cube core has, and one only the vector
    core has (MTE2 and S tell neither)."""
    used = {pipe for t in p.tasks[:body_tasks] for pipe in t.pipes}
    return bool(used & hardware.CUBE_ONLY_PIPES), bool(used & hardware.VECTOR_ONLY_PIPES)


def _body(p: LoopProblem, body_tasks: int) -> LoopProblem:
    """`p` without the tasks after the body (drain reservations, set points), which are
    no code."""
    return replace(p, tasks=list(p.tasks[:body_tasks]),
                   deps=[d for d in p.deps if d.src < body_tasks and d.dst < body_tasks],
                   conflicts=[c for c in p.conflicts if max(c) < body_tasks])
