"""The code of a modulo schedule's loop body as the replay reads it (realize.py), IR-free:
its ops in program order with the sets insert-sync writes (where `flag_sets.set_points`
and `code_flags.placed_sets` put them), what each item waits for (flags, pipe barriers,
pipe_barrier[<PIPE_ALL>]s), and the straight-line sets of a stage-skewed loop's prologue
and epilogue. `code_of` builds it once per problem and schedule; `realize._Replay` runs it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ascend_mlir import hardware
from ascend_mlir.analysis import flag_sets, sync_plan

from . import code_flags
from .problem import Dep, LoopProblem

# a cube op's feed (reference/latency-model.md): mmadL1 reads its L1 operands on MTE1 before
# the cube (M, the solver's pipe for it, whose ii includes the feed) computes, so a flag
# between it and an L1 writer is on MTE1 (M_MTE2 is spelled MTE1_MTE2, MTE2_M MTE2_MTE1),
# set once the feed is over rather than behind the cube: gemm_dyn's K loop replayed at
# 614 cycles an iteration with its MTE1 -> MTE2 set behind the cube, ran 520
_FED_PIPE, FEED_PIPE = "M", "MTE1"
_L1_WRITERS = frozenset({"MTE2", "MTE3"})


@dataclass
class Item:
    """One entry of a pipe's queue: a body task or a set_flag."""

    task: int | None  # body task index; None for a set
    pipes: tuple[str, ...]
    ii: int
    latency: int
    # cycles after its start at which a set_flag behind it may run: the latest of its
    # releases to other pipes (an mmadL1's L1 operands are read by the MTE1 feed, long
    # before the cube completes), its latency when it releases nothing
    released: int = 0
    # a cube task's feed (`FEED_PIPE`, among its pipes when > 0): the cycles it holds
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


def code_distance(kernel: int, forward: bool, ring: bool) -> int:
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


# a `Wait.code` for a dependence the loop's flags order without one of its own
NO_WAIT = -1
# the stage shift `Code.shift` gives a straight-line set (a kernel's set: -1)
STRAIGHT = -2


@dataclass(frozen=True)
class Wait:
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
class Code:
    """The body's code: its items in program order (tasks and sets), what each waits for,
    per set its releases (producer item, consumer item, kernel iterations between them),
    per item its stage shift (a set: -1), and per pipe pair the items that release to it."""

    items: list[Item]
    waits: list[list[Wait]]
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
    # no pass of the loop waits for (`NO_WAIT`): a stage-skewed loop's prologue waits
    # for them before the loop
    entering: dict[tuple[str, str], list[tuple[int, int]]] = field(default_factory=dict)
    # per straight-line set (`STRAIGHT`: a stage-skewed loop's prologue and epilogue
    # may have a set after each producer; `realize._Replay._straight_flags` says which do), its
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
    at (`code_distance`; `NO_WAIT` for one at least the loop's passes apart, which is
    none in the loop: insert-sync knows the count, and a stage-skewed loop's kernel runs
    S - 1 passes fewer)."""
    kernel = [_kernel_distance(d, versions, shift) for d in deps]
    code = [code_distance(k, pos[d.src] < pos[d.dst], trips is not None and _crosses(p, d) and not _between_cores(p, d))
            for d, k in zip(deps, kernel, strict=True)]
    passes = None if trips is None else trips - max(shift, default=0)
    for n, k in enumerate(kernel):
        if passes is not None and 0 < passes <= k:
            code[n] = NO_WAIT
    return kernel, code


def _items(p: LoopProblem, order: list[int], shift: list[int], deps: list[Dep], feeds: dict[int, int],
           sets_at: dict[int, list[code_flags.SetKey]],
           straight_at: dict[int, list[code_flags.SetKey]]):
    """The body's items in program order (each task, then the sets at its point, then
    the straight-line code's sets after it), per task its item, per set key its item and
    straight-line set, per item its stage shift (a set: -1, a straight-line set:
    `STRAIGHT`)."""
    released: dict[int, int] = {}
    for d in deps:
        if p.tasks[d.src].pipes != p.tasks[d.dst].pipes:
            # towards a fed cube op's cube part (its accumulator), the dependence counts
            # to the op's issue, `feed` before that part begins: the producer's access is
            # over that much after the latency
            begin = feeds.get(d.dst, 0) if _flag_pipes(p, d)[1] != FEED_PIPE else 0
            released[d.src] = max(released.get(d.src, 0), d.latency + begin)
    items: list[Item] = []
    item_of: dict[int, int] = {}
    set_of: dict[code_flags.SetKey, int] = {}
    straight_of: dict[code_flags.SetKey, int] = {}
    item_shift: list[int] = []
    for n, i in enumerate(order):
        t = p.tasks[i]
        item_of[i] = len(items)
        feed = feeds.get(i, 0)
        items.append(Item(i, (*t.pipes, FEED_PIPE) if feed else t.pipes, t.ii, t.latency, released.get(i, t.latency),
                           feed))
        item_shift.append(shift[i])
        for key in sets_at.get(n, ()):
            set_of[key] = len(items)
            items.append(Item(None, (key[1],), 1, 1, 1))
            item_shift.append(-1)
        for key in straight_at.get(n, ()):
            straight_of[key] = len(items)
            items.append(Item(None, (key[1],), 1, 1, 1))
            item_shift.append(STRAIGHT)
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
    pipes, a cube op's feed (`FEED_PIPE`) where the other end writes L1."""
    src, dst = p.tasks[d.src].pipes[0], p.tasks[d.dst].pipes[0]
    if src == _FED_PIPE and dst in _L1_WRITERS:
        return FEED_PIPE, dst
    if dst == _FED_PIPE and src in _L1_WRITERS:
        return src, FEED_PIPE
    return src, dst


def _feeds(p: LoopProblem, deps: list[Dep]) -> dict[int, int]:
    """Per cube task whose L1 operands an L1 writer of the loop refills, the cycles of its
    feed: when its reads are over (the latency of those write-after-read dependences)."""
    feed: dict[int, int] = {}
    for d in deps:
        if _flag_pipes(p, d)[0] == FEED_PIPE:
            feed[d.src] = max(feed.get(d.src, 0), d.latency)
    return feed


def schedule_key(body_tasks: int, ii: int, start: list[int], versions: dict[str, int]) -> tuple:
    """One schedule of a problem's body as part of a `LoopProblem.remembered` key."""
    return body_tasks, ii, tuple(start), tuple(sorted(versions.items()))


def code_of(p: LoopProblem, body_tasks: int, ii: int, start: list[int], versions: dict[str, int],
          gather: bool = True, trips: int | None = None, barriers: bool = False, one_pass: bool = False,
          runtime: bool = False) -> Code:
    """`_written_code`, once per problem and arguments."""
    key = ("code", *schedule_key(body_tasks, ii, start, versions), gather, trips, barriers, one_pass, runtime)
    return p.remembered(key, lambda: _written_code(p, body_tasks, ii, start, versions, gather, trips, barriers,
                                                   one_pass, runtime))


def _written_code(p: LoopProblem, body_tasks: int, ii: int, start: list[int], versions: dict[str, int],
                  gather: bool, trips: int | None, barriers: bool, one_pass: bool, runtime: bool) -> Code:
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
    issued_on = [frozenset((*p.tasks[i].pipes, FEED_PIPE) if i in feeds else p.tasks[i].pipes) for i in order]
    timed = [flag_sets.Item(pipes, at[i], p.tasks[i].latency, p.tasks[i].ii)
             for pipes, i in zip(issued_on, order, strict=True)]
    kernel, code = _distances(p, deps, versions, shift, pos, trips)
    cross = [n for n, d in enumerate(deps) if _crosses(p, d) and code[n] != NO_WAIT]
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
    waits: list[list[Wait]] = [[] for _ in items]
    walls = {item_of[order[b]] for b in placed}
    fenced = _pipe_barriers(p, deps, code, set_of, item_of, walls)
    for k in fenced:  # the pipe_barrier: one cycle of its pipe before the consumer
        wait_flags[k] += 1
    for c in back:  # credit flags (code_flags): no dependence of the problem's
        src, dst, key = item_of[order[c.src]], item_of[order[c.dst]], code_flags.set_key(c, c.src)
        producers.setdefault(set_of[key], []).append((src, dst, c.distance))
        waits[dst].append(Wait(set_of[key], 2, c.distance, src, c.distance, items[src].released + 2,
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
    return Code(items, waits, producers, item_shift, releasing, conflicts, wait_flags, waited, barrier,
                 entering=_entering(p, deps, kernel, code, item_of, set(flagged)), modelled=modelled, straight=straight,
                 straight_wait=straight_wait)


def _dependence_wait(p: LoopProblem, d: Dep, item_of: dict[int, int], producer: Item, set_item: int | None,
                     code: int, kernel: int, fenced: bool) -> Wait:
    """What dependence `d`'s consumer waits for: its flag's set (`set_item`), in
    straight-line code its producer's release; on one pipe the producer's completion,
    and the pipe_barrier's cycle where one stands before the consumer (`fenced`)."""
    src = item_of[d.src]
    pipes = _flag_pipes(p, d)
    if set_item is not None:
        return Wait(set_item, 2, code, src, kernel, producer.released + 2, pipes, True)
    if _crosses(p, d):  # none in the loop (covered, or no next pass): straight-line code waits
        return Wait(src, 0, NO_WAIT, src, kernel, producer.released + 2, pipes, True)
    after = d.latency + fenced
    return Wait(src, after, code, src, kernel, after, pipes, False)


def _straight_releases(p: LoopProblem, deps: list[Dep], pos: dict[int, int], shift: list[int],
                       straight_line: bool) -> tuple[list[int], list[flag_sets.Release]]:
    """The hand-offs between pipes (indices into `deps`) whose sets a stage-skewed loop's
    prologue and epilogue may have, and those releases (a set after each producer per
    pipe pair, where `realize._Replay._straight_flags` finds one needed): straight-line code,
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


def _pipe_barriers(p: LoopProblem, deps: list[Dep], code: list[int], set_of: dict[code_flags.SetKey, int],
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
    for (_, pipe, *_), k in set_of.items():
        drains.setdefault(pipe, []).append(k)
    fences: dict[str, set[int]] = {}
    same = [n for n, d in enumerate(deps) if code[n] != NO_WAIT and len(p.tasks[d.src].pipes) == 1
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
              item_of: dict[int, int], flagged: set[int]) -> dict[tuple[str, str], list[tuple[int, int]]]:
    """Per pipe pair, the (producer item, kernel distance) of its cross-pipe dependences
    that no pass of the loop waits for (`Code.entering`): none next pass, or one a flag of
    the loop covers in its passes (`flagged` lacks it), whose covering flag's producer
    the prologue may not have: insert-sync anchors the pair's prime after the prologue's
    producer all the same (narrow seed 310 on skewed.toml, U = 2: the first pass's vmul
    waited for the prologue's store, replayed as primed from the start, 894 a pass where
    the code ran 1078)."""
    entering: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for n, d in enumerate(deps):
        if (code[n] == NO_WAIT or n not in flagged) and _crosses(p, d):
            entering.setdefault(_flag_pipes(p, d), []).append((item_of[d.src], kernel[n]))
    return entering
