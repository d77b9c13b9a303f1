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
from dataclasses import dataclass, replace

from ascend_mlir import hardware

from .loop_code import FEED_PIPE, NO_WAIT, STRAIGHT, Code, Wait, code_of, schedule_key
from .problem import LoopProblem


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



# the parts of a fed cube op (`_Replay.split`)
_FEED, _CUBE = 1, 2


class _Replay:
    """The event loop of the replay: per-pipe queues over `iterations` kernel iterations
    of the body; with `trips`, the code of a loop of that many (a stage-skewed one's
    prologue and epilogue, kernel iterations before `first` and after `last`, hold only
    the ops of iterations that exist and are straight-line code)."""

    def __init__(self, code: Code, iterations: int, trips: int | None = None):
        self.code = code
        self.items, self.n = code.items, len(code.items)
        self.iterations = iterations
        skew = max(code.shift, default=0)
        self.first = skew if trips is not None else 0
        self.last = trips - 1 if trips is not None else iterations
        self.trips = trips
        self.straight_sets, self.covering, self.prologue_waited, entering = (
            self._straight_flags() if trips is not None and skew else (set(), {}, {}, {}))
        self.pipes = sorted({pp for item in self.items for pp in item.pipes}, key=hardware.PIPES.index)
        # per pipe, the (kernel iteration, item) it issues, in order
        self.queue = {pp: [(it, n) for it in range(iterations) for n, item in enumerate(self.items)
                           if pp in item.pipes and self.present(it, n)] for pp in self.pipes}
        # per op of the loop's passes, the prologue's sets whose wait_flags stand before the
        # loop on its pipe (`_straight_flags`): its pipe's first op after the prologue's
        self.entered: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for pp, flags in entering.items():
            head = next((key for key in self.queue.get(pp, ()) if key[0] >= self.first), None)
            if head is not None:
                self.entered.setdefault(head, []).extend(flags)
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
        # a fed cube op (mmadL1: `Item.feed`) runs as the simulator and the hardware run it,
        # in two parts: its MTE1 feed as soon as MTE1 and the feed's own waits let it, its
        # cube part on M once the feed is over and M and the cube's waits let it (the
        # wait_flag[FIX, M] before it holds the M queue only). As one item after every wait,
        # nested_gemm(6, 1) with 64 x 64 x 64 tiles and one version a buffer replayed at
        # 568 cycles a tile where it ran 430, and the next tile's loads, which wait for the
        # feed, were replayed behind the fixpipe where they take the HBM port before it.
        self.split = [item.feed > 0 and len(item.pipes) == 2 and item.pipes[1] == FEED_PIPE != item.pipes[0]
                      for item in self.items]
        self.fed: dict[tuple[int, int], int] = {}  # per fed op, when its feed started
        self.starts = 0  # items and feeds started: what lets a head `_ready` could not answer move
        # the cycle the scalar unit issued an item a pipe_barrier[<PIPE_ALL>] stands before
        self.issued: dict[tuple[int, int], int] = {}
        self.final: dict[tuple, int] = {}  # `_kept`'s answers
        self.steady_waits, self.reach = self._steady_waits()
        self.after_loop = self._sets_after_loop() if trips is not None and skew and self.first <= self.last else set()

    def _sets_after_loop(self) -> set[str]:
        """The pipes a set stands on right after a stage-skewed loop: those of the loop's
        producers an epilogue op of another pipe waits for (`_loop_end`). It is an
        instruction of its pipe, which drains it: the epilogue's ops of that pipe start
        after it, once the loop's last pass completed there (random kernel 1073 on the
        950, 5 copy chains, 2 trips: the epilogue's stores replayed from the HBM port's
        first gap after the loop's last store, 4117 cycles against program order's 4119;
        behind the set after the loop they ran after the epilogue's load, 4306)."""
        pipes: set[str] = set()
        for n, waits in enumerate(self.code.waits):
            for it in range(self.last + 1, self.iterations):
                if self.present(it, n):
                    pipes.update(w.pipes[0] for w in waits if w.cross and self.first <= it - w.exact <= self.last
                                 and self.present(it - w.exact, w.task))
        return pipes

    def _steady_waits(self) -> tuple[list[list[Wait]], list[int]]:
        """Per item, its waits with those another one implies left out, for a pass of the
        loop whose producers all run in passes of the loop too (`reach`: the most passes
        back one of them is). A pipe issues in queue order, pass by pass and item by item,
        so a wait on an earlier producer of the same pipe, no more cycles after it than a
        later one's, is over once that one's is (a loop of 256 ops: 93 waits an item,
        most on the same few pipes)."""
        pruned: list[list[Wait]] = []
        reach: list[int] = []
        for waits in self.code.waits:
            kept = [w for w in waits if w.code == NO_WAIT]
            looped = [w for w in waits if w.code != NO_WAIT]
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
            return self.code.shift[n] != STRAIGHT
        if self.code.shift[n] >= 0:
            return 0 <= it - self.code.shift[n] < self.trips
        if self.first <= it <= self.last:
            return self.code.shift[n] != STRAIGHT
        if self.code.shift[n] != STRAIGHT:
            return False  # the kernel's set points: not in straight-line code
        return (it, n) in self.straight_sets

    def _runs(self, it: int, n: int) -> bool:
        """Whether body task n runs in kernel iteration `it` (its own iteration exists)."""
        return 0 <= it - self.code.shift[n] < self.trips  # type: ignore[operator]

    def _straight_flags(self) -> tuple[set[tuple[int, int]], dict[tuple, tuple[int, int]],
                                       dict[tuple[int, int], list[tuple[int, int]]],
                                       dict[str, list[tuple[int, int]]]]:
        """The sets of the prologue and epilogue (straight-line code, with the loop one item
        of it), as insert-sync plans that block: its hand-offs in program order of the
        consumer (the latest producer first), each not ordered by a set of its pipe pair
        already placed (after the producer or a later op of its pipe, waited before the
        consumer) gets a set right after its producer, waited before its consumer. So the
        hand-offs of the prologue's loads to the loop take one set after the last load
        (the prime insert-sync anchors there), not one after each that drains MTE2 before
        the next load issues (unseen seed 14, 10 loads: the fill replayed at 3767 cycles,
        ran 2951). The loop is one item of that block: a hand-off to it is waited before
        it, on the consumer's pipe (the loop's first op there waits for the set), unless
        one of the loop's carried flags of the pair takes it over (`_primed`: insert-sync's
        `_anchor_primes`, the prime set after the producer instead). Unseen narrow seed 918
        on skewed (a count known at run time): the loop's first load waited before the loop
        for the prologue's last vector op, whose source a later pass's load refills (the
        loop as one item writes every version); replayed after the first pass's own
        producer, two vector ops earlier, it ran 486 cycles early (pipelined code replayed
        7053 cycles at 4 trips, ran 7541; program order 7181), and the pipelined loop was kept.
        Returns the (kernel iteration, set item)s that run, per hand-off
        (producer's iteration and item, consumer's, pipe pair), the set it waits for, per
        op of the prologue, the sets whose wait_flags stand before it (one per set, before
        its first consumer), in the order they are placed, and per pipe, the sets waited
        on it before the loop."""
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
        # point, wait, pair, set, whether a loop's carried flag took it over (a prime), and
        # whether it is waited before the loop
        placed: list[tuple[int, int, tuple[str, str], tuple[int, int], bool, bool]] = []
        covering: dict[tuple, tuple[int, int]] = {}
        carried = self._carried_waits()
        for at, before, pair, j, src, s, c, dst in sorted(releases):
            entered = j < first <= last  # a hand-off to the loop (`at` is loop_at)
            primed = entered and self._primed(carried, pair, c, dst)
            # a prime orders only the loop's ops after its wait: a hand-off to one before
            # it is not covered by the prime (insert-sync's `_model` with the anchored primes)
            got = next((flag for point, wait, fpair, flag, fprimed, _ in placed
                        if fpair == pair and -before <= point < at and wait <= at and (primed or not fprimed)), None)
            if got is None:
                got = (j, s)
                placed.append((-before, at, pair, got, primed, entered))
            covering[(j, src, c, dst, pair)] = got
        waited: dict[tuple[int, int], list[tuple[int, int]]] = {}
        entering: dict[str, list[tuple[int, int]]] = {}
        for _, at, pair, flag, primed, entered in placed:
            if at < loop_at:  # a consumer of the prologue
                waited.setdefault(order[at], []).append(flag)
            elif entered and not primed:  # the loop's (a prime: the loop's own wait, `_prime`)
                entering.setdefault(pair[1], []).append(flag)
        return {flag for *_, flag, _, _ in placed}, covering, waited, entering

    def _carried_waits(self) -> dict[tuple[str, str], int]:
        """Per pipe pair, the first item of the body a carried flag of the loop's (a kernel
        set, or a credit, waited passes later) is waited at."""
        first: dict[tuple[str, str], int] = {}
        for m, waits in enumerate(self.code.waits):
            for w in waits:
                if w.cross and w.code > 0 and self.code.shift[w.src] == -1:
                    first.setdefault(w.pipes, m)
        return first

    def _primed(self, carried: dict[tuple[str, str], int], pair: tuple[str, str], c: int, dst: int) -> bool:
        """Whether a hand-off of `pair` from the prologue to item `dst` of kernel iteration
        `c` of the loop is taken over by a carried flag of the loop (insert-sync's
        `_anchor_primes`): one waited in the loop's first pass no later than the consumer,
        or anywhere where the first pass does not touch the producer's data (its consumer
        is of a later pass: the buffer version of a later one)."""
        m = carried.get(pair)
        return m is not None and (m <= dst or c > self.first)

    def _after(self, j: int, n: int, after: int) -> int | None:
        s = self.started.get((j, n))
        return None if s is None else s + after

    def _wait_at(self, it: int, n: int, w: Wait) -> int | None:
        """The cycle wait `w` of item n of kernel iteration `it` lets it start at (0: no
        wait; None: not known yet)."""
        if self.first <= it <= self.last:
            if w.code != NO_WAIT and it - w.code >= self.first:
                return self._after(it - w.code, w.src, w.after)
            if not (w.cross and self.first > 0):
                return 0
            # a producer before the loop's passes (in the prologue, or of an iteration the
            # code has not), and a loop that is one item of the code around it, whose
            # accesses span every pass (all versions of a buffer). A hand-off no pass of
            # the loop waits for (`NO_WAIT`): insert-sync waits for the pair's prologue
            # producers before the loop, whatever iteration they are of (random kernel 752,
            # 3 trips: the first pass's loads waited for the prologue's store, 1121 cycles,
            # replayed at 575; random kernel 153: the next tile's loads for the prologue's
            # last V op). A carried one: the pair's prime, which insert-sync anchors right
            # after the prologue's last producer (random kernel 120: the first pass's load
            # after the prologue's vsqrt). Either way after the dependence's own producer
            # where the prologue has it.
            # Its set is the prologue's: the straight-line set that covers the hand-off
            # (`_straight_flags`; the prime insert-sync anchors after the pair's last producer
            # there), which runs once the sets before it on its pipe ran (unseen narrow seed
            # 517 on skewed: the prologue's V -> MTE3 and V -> MTE2 primes after one vector
            # op, replayed as both waited 318 cycles after it, gave the first pass's load the
            # HBM port before the store that ran a cycle earlier: 4825 cycles replayed, 5726 run)
            j = it - w.exact
            own = self._handed_off(j, it, n, w) if 0 <= j < self.first and self.present(j, w.task) else 0
            entry = self._entry(w)
            return None if entry is None or own is None else max(entry, own)
        j = it - w.exact
        if it > self.last and self.first <= self.last and not j > self.last:
            # an epilogue op after a producer of the loop's passes; or of an iteration no
            # pass runs, whose op the loop has all the same: insert-sync sees the loop as
            # one item whose accesses span every pass (all versions of a buffer), and sets
            # the flag after it (random kernel 768, 2 trips, 3 stages: the epilogue's first
            # vector op waited for the loop's last store, 925 cycles, replayed at 666)
            return self._loop_end(w.pipes[0], w.cross)
        if j < 0 or not self.present(j, w.task):
            return 0
        return self._handed_off(j, it, n, w)

    def _entry(self, w: Wait) -> int | None:
        """`_before_loop` of `w`'s pipe pair for a hand-off no pass waits for, else its
        `_prime` (each depends on the pair alone)."""
        if w.code == NO_WAIT:
            return self._kept(("before loop", w.pipes), lambda: self._before_loop(w.pipes))
        return self._kept(("prime", w.pipes), lambda: self._prime(w))

    def _kept(self, key: tuple, compute: Callable[[], int | None]) -> int | None:
        """`compute()`, kept once known: a cycle the last of some producers released at,
        final once they all started (None until then). The waits of the loop's first
        passes and of the epilogue ask the same few again and again: on a ring of 248
        ops, asked afresh each time, 37% of the whole compile."""
        known = self.final.get(key)
        if known is None:
            known = compute()
            if known is not None:
                self.final[key] = known
        return known

    def _handed_off(self, j: int, it: int, n: int, w: Wait) -> int | None:
        """When the hand-off of wait `w` from its producer's iteration `j` (straight-line
        code's) to item n of kernel iteration `it` is over: two cycles after the
        straight-line set that covers it (`_straight_flags`), else after its producer."""
        flag = self.covering.get((j, w.task, it, n, w.pipes)) if w.cross else None
        if flag is not None:
            return self._after(*flag, 2)
        return self._after(j, w.task, w.exact_after)

    def _prime(self, w: Wait) -> int | None:
        """A loop-carried flag's wait in the loop's first passes: its prime, which
        insert-sync sets right after the prologue's last producer of the pipe pair
        (`_anchor_primes`), else before everything (no wait). The producers of the pair's
        dependences no pass of the loop waits for (`Code.entering`) count too: insert-sync
        anchors their primes to the pair's flag (random kernel 120: the first pass's first
        load waited for the prologue's last vsqrt, whose buffer the second load refills)."""
        first = self.first
        return self._last_release(
            [*((it, n) for it in range(first) for n in self.code.releasing.get(w.pipes, ())),
             *((j, src) for src, exact in self.code.entering.get(w.pipes, ()) for j in range(max(0, first - exact), first))])

    def _before_loop(self, pipes: tuple[str, str]) -> int | None:
        """The wait before a stage-skewed loop for the prologue's producers of the pipe
        pair that no pass of the loop waits for (`Code.entering`): once the last of
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

    def _loop_end(self, pipe: str, cross: bool) -> int | None:
        """When an epilogue op may go after the loop's producers on `pipe`: once every op
        of `pipe` in the loop's last pass completed, and with `cross` (a wait of another
        pipe) the set after the loop ran and was waited for."""
        return self._kept(("loop end", pipe, cross), lambda: self._last_pass_done(pipe, cross))

    def _last_pass_done(self, pipe: str, cross: bool) -> int | None:
        latest = 0
        for n, item in enumerate(self.items):
            if item.task is not None and pipe in item.pipes and self.present(self.last, n):
                at = self._after(self.last, n, item.released + (2 if cross else 0))
                if at is None:
                    return None
                latest = max(latest, at)
        return latest

    def _ready(self, it: int, n: int, part: int = 0) -> int | None:
        """The earliest cycle item n of iteration `it` may start at (None: not yet known).

        Asked again every time the event loop moves on, so what it learns is kept: once
        the item heads each of its pipes nothing else issues there before it, so the
        pipes' part stays as it is, and a wait once answered does not change (the
        producers' starts are final); a call resumes at the first wait not answered yet
        (a set with 50 releases was asked all of them each step: 10M waits on a loop of
        256 ops).

        `part`: of a fed cube op (`split`), its feed (_FEED) or its cube part (_CUBE), each
        with its own pipe and the waits of its own pipe; the cube part once the feed is
        over."""
        key = (it, n)
        cached = key if part != _FEED else (it, n + self.n)
        known = self.ready.get(cached)
        if known is not None:
            return known
        item = self.items[n]
        pipes = item.pipes if not part else item.pipes[1:] if part == _FEED else item.pipes[:1]
        if not self._heads(key, pipes) or (part == _CUBE and key not in self.fed):
            return None
        resumed = self.partial.get(cached)
        waited = self.code.waited[n]  # the sets whose wait_flags stand before it
        if resumed is None:
            at = self._pipes_let(it, n, part, pipes)
            if at is None:
                return None
            k, arrived = 0, {}
        else:
            k, at, arrived = resumed
        started, first = self.started, self.first
        steady = first <= it <= self.last
        waits = self.steady_waits[n] if steady and it - self.reach[n] >= first else self.code.waits[n]
        while k < len(waits):
            w = waits[k]
            if part and (w.pipes[1] == FEED_PIPE) != (part == _FEED):
                k += 1  # the other part's
                continue
            j = it - w.code
            if steady and w.code != NO_WAIT and j >= first:
                # `_wait_at`'s common case inline: a producer of a pass of the loop
                s = started.get((j, w.src))
                got = None if s is None else s + w.after
            else:
                got = self._wait_at(it, n, w)
            if got is None:
                self.partial[cached] = (k, at, arrived)
                return None
            if part == _CUBE and not w.cross:
                got += item.feed  # the dependence's latency counts to the op's issue, its feed
            if got > at:
                at = got
            if w.cross and w.src in waited:
                arrived[w.src] = max(arrived.get(w.src, 0), got - 1)  # its set ran
            k += 1
        self.ready[cached] = at = self._after_waits(it, n, at, arrived, pipes)
        return at

    def _heads(self, key: tuple[int, int], pipes: tuple[str, ...]) -> bool:
        """Whether `key` heads the queue of each of `pipes`."""
        for pp in pipes:
            k, q = self.head[pp], self.queue[pp]
            if k >= len(q) or q[k] != key:
                return False
        return True

    def _pipes_let(self, it: int, n: int, part: int, pipes: tuple[str, ...]) -> int | None:
        """When `pipes`, the wait_flags and barriers before item n of iteration `it` and
        the prologue's waits before the loop let it (its `part`) start, before its own
        waits (None while a barrier's or the prologue's producer has not issued)."""
        item = self.items[n]
        at = max(self.pipe_free[pp] for pp in pipes) + self._wait_flags(it, n)
        if part == _CUBE:
            at = max(at, self.fed[(it, n)] + item.feed)
        if item.task is None:  # a set: every earlier op of its pipe completed
            at = max([at, *self.inflight[item.pipes[0]]])
        elif it > self.last and item.pipes[0] in self.after_loop:  # behind the set after the loop
            done = self._loop_end(item.pipes[0], cross=False)  # once the loop's last pass completed there
            if done is None:
                return None
            at = max(at, done + 1)
        drained, entered = self._barrier(it, n), self._waited_before_loop((it, n))
        if drained is None or entered is None:
            return None
        return max(at, drained, entered)

    def _waited_before_loop(self, key: tuple[int, int]) -> int | None:
        """When the prologue's sets waited before the loop on the pipe of `key`, the loop's
        first op there (`entered`, `_straight_flags`), let it start: 2 cycles after the
        last of them (0 if none; None while one has not issued)."""
        at = 0
        for flag in self.entered.get(key, ()):
            s = self.started.get(flag)
            if s is None:
                return None
            at = max(at, s + 2)
        return at

    def _wait_flags(self, it: int, n: int) -> int:
        """The cycles item n of kernel iteration `it` spends on its pipe in the wait_flags
        and pipe barriers before it (`Code.wait_flags`). In the prologue, straight-line
        code: a wait_flag per straight-line set it is the first consumer of
        (`_straight_flags`), none for the kernel's flags (unseen narrow seed 517 on
        skewed: the first pass's load and vector op each replayed a cycle late on the
        kernel's wait_flag[V, MTE2] and wait_flag[MTE3, V], which the prologue has not)."""
        if it >= self.first:
            return self.code.wait_flags[n] + len(self.entered.get((it, n), ()))
        return self.code.wait_flags[n] - len(self.code.waited[n]) + len(self.prologue_waited.get((it, n), ()))

    def _after_waits(self, it: int, n: int, at: int, arrived: dict[int, int], pipes: tuple[str, ...]) -> int:
        """`at`, or later where item n's wait_flags (`Code.waited`; the prologue's own in
        the prologue), one after another on its pipe after the pipe and its barriers, each
        once its set ran (`arrived`), end later."""
        if it < self.first:  # when each of the prologue's sets ran
            ran = [self.started.get(flag, 0) + 1 for flag in self.prologue_waited.get((it, n), ())]
        else:  # the waits before the loop first, then the op's own
            ran = [*(self.started[flag] + 1 for flag in self.entered.get((it, n), ())),
                   *(arrived.get(s, 0) for s in self.code.waited[n])]
        if len(ran) < 2:
            return at  # one wait: its set's start + 2, as `at` has it
        queued = max(self.pipe_free[pp] for pp in pipes) + self._wait_flags(it, n) - len(ran)
        for cycle in ran:
            queued = max(queued, cycle) + 1
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

    def run(self) -> dict[tuple[int, int], int]:
        now, total = 0, len({entry for q in self.queue.values() for entry in q})
        started, queue, heads, pipes, port_free_at = self.started, self.queue, self.head, self.pipes, self.port_free_at
        # per pipe, its head and the count of starts (a fed op's feed's too) when `_ready` could
        # not answer: only a start changes that
        unknown: dict[str, tuple[tuple[int, int], int]] = {}
        split = self.split
        while len(started) < total:
            progressed, next_at = False, None
            for pp in pipes:  # hardware.PIPES order: the first pipe takes a shared resource
                q, k = queue[pp], heads[pp]
                if k >= len(q):
                    continue
                head = q[k]
                if head in started or unknown.get(pp) == (head, self.starts):
                    continue
                it, n = head
                part = 0 if not split[n] else _FEED if pp == FEED_PIPE else _CUBE
                at = self._ready(it, n, part)
                if at is None:
                    unknown[pp] = (head, self.starts)
                    continue
                if port_free_at[n] > at:  # the resource it shares is held until then
                    at = port_free_at[n]
                if at > now:
                    next_at = at if next_at is None else min(next_at, at)
                    continue
                self._start(it, n, now, part)
                progressed = True
            if progressed:
                continue
            if next_at is None:
                raise ValueError("the replayed code waits for nothing that comes (a dependence "
                                 "on a later op of the same iteration)")
            now = next_at
        return self.started

    def _start(self, it: int, n: int, now: int, part: int = 0) -> None:
        """Start item n of iteration `it` (of a fed op, `part` of it) at `now`. A fed op's
        start is its feed's: its cube part, started at `now`, counts from `feed` before."""
        item = self.items[n]
        self.starts += 1
        if part == _FEED:
            self.fed[(it, n)] = now
            self.head[FEED_PIPE] += 1
            self.pipe_free[FEED_PIPE] = now + item.feed
            self.inflight[FEED_PIPE] = [*(c for c in self.inflight[FEED_PIPE] if c > now), now + item.feed]
            return
        begun = now - item.feed if part == _CUBE else now
        self.started[(it, n)] = begun
        for pp in item.pipes[:1] if part == _CUBE else item.pipes:
            held = item.feed if item.feed and pp == FEED_PIPE else None
            self.head[pp] += 1
            # a cube part holds M for the op's ii or, shorter, its own latency (the
            # simulator's cube instruction)
            ii = max(1, min(item.ii, item.latency - item.feed)) if part == _CUBE else item.ii
            self.pipe_free[pp] = now + (ii if held is None else held)
            done = [c for c in self.inflight[pp] if c > now]
            done.append(begun + item.released if held is None else now + held)
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
    starts. `gather`: see `code_of` (false for a loop kept in program order). A forward
    loop-carried flag waits in its own pass here (`code_distance`: no trip count), where
    insert-sync carries it on a ring of ids when the count is known: replaying the ring
    here too made random kernels 22 and 28 slower (3359 -> 4184, 3908 -> 4098 cycles:
    the skewed code replayed faster than its one-stage form and was kept, and ran slower).
    `trips`: the loop's known trip count, whose rings the replay then carries (the II a
    schedule's code is written at, not the choice between forms)."""
    key = ("realize", *schedule_key(body_tasks, ii, start, versions), iterations, gather, one_pass, trips)
    run = p.remembered(key, lambda: _replayed_steady_state(p, body_tasks, ii, start, versions, iterations, gather,
                                                           one_pass, trips))
    return Realized(run.ii, list(run.start))  # a list of its own to each caller


def _replayed_steady_state(p: LoopProblem, body_tasks: int, ii: int, start: list[int], versions: dict[str, int],
                           iterations: int | None, gather: bool, one_pass: bool, trips: int | None) -> Realized:
    code = code_of(p, body_tasks, ii, start, versions, gather, trips, one_pass=one_pass)
    items = code.items
    stages = max(start[:body_tasks], default=0) // ii + 1
    deepest = max([1, *versions.values()]) + max((d.distance for d in p.deps), default=0)
    n_it = iterations or max(MIN_ITERATIONS, 2 * (deepest + 1), 2 * stages + 4)
    body = [n for n, item in enumerate(items) if item.task is not None]
    while True:
        started = _Replay(code, n_it).run()
        half, last = n_it // 2, n_it - 1
        # over an even count of passes: a steady state may alternate a long pass and a
        # short one (unseen seed 1123 on the 910B: 516 and 361, the stores of one pass
        # holding the next one's loads), which three passes of eight read as 468 where
        # the code runs 438.5 an iteration
        period = _period(started, body, half + (last - half) % 2, last)
        # steady once the last quarter runs at the second half's period: a pipe may run
        # ahead of the binding one for passes until its flags' ids hold it, and only then
        # take the shared port when the other needs it (unseen seed 17 on four_ids: 425
        # cycles a pass for 8 passes, 600 from the tenth, replayed over 8 at 531)
        later = _period(started, body, last - n_it // 4, last)
        steady = later * 100 <= period * 101 and _in_step(started, body, half, last - n_it // 4, later)
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


def _in_step(started: dict[tuple[int, int], int], body: list[int], half: int, quarter: int, period: int) -> bool:
    """Whether the body's items drift apart no more than 1% of `period` a pass from pass
    `half` to pass `quarter`: the spread of the items' moves over those passes (the last
    passes, which nothing after them holds back, run out on their own and are left out).
    Where one pipe runs ahead of another, the slowest item's period is not yet the
    loop's (unseen seed 65 on four_ids: the loads ran at 412 cycles a pass and the stores
    at 475 for seven passes, then everything at 565 once the loads' ids held them and
    they took the HBM port from the stores; replayed over ten passes, the stores' 475
    looked steady and 514 was written). Item by item, not as the spread of the moves from
    `half` to the last pass less the spread of the moves from `quarter`: each spread is
    between its own two items, and their difference no item's drift (unseen seed 1404 on
    four_ids, 8 passes: from pass 4 to 5 the loads moved 389 cycles and the stores 489,
    where the two spreads said 243 and 241; the replay's 514 was written, the code ran 476)."""
    moved = [started[(quarter, n)] - started[(half, n)] for n in body]
    return max(moved) - min(moved) <= (quarter - half) * max(2, period // 100)


def _period(started: dict[tuple[int, int], int], body: list[int], first: int, last: int) -> int:
    """Cycles per pass from pass `first` to pass `last` of a replay (the slowest item's)."""
    return -(-max(started[(last, n)] - started[(first, n)] for n in body) // (last - first))


def loop_cycles(p: LoopProblem, body_tasks: int, ii: int, start: list[int], versions: dict[str, int],
                trips: int, gather: bool = True, barriers: bool = False, one_pass: bool = False,
                runtime: bool = False) -> int:
    """Cycles the code of the schedule `start` runs `trips` iterations in (module doc):
    from the first op's issue to the last op's completion, the fill and drain of a
    pipelined loop included (not the flags primed before the loop and drained after it).
    `gather`, `barriers`: see `code_of`. A stage-skewed loop (`kernel_shift`) runs as ascend-pipeline-loops
    emits it: kernel iterations 0 .. trips + S - 2, each with the ops of the iterations that
    exist (the prologue and epilogue are the first and last S - 1 of them). `runtime`: the
    code of a loop whose count is known at run time only (no rings of ids, `code_of`'s
    trips None), run `trips` times: the code of a known count of one has no carried flag,
    and replayed one trip of unseen seed 659's runtime loop at 719 cycles, which ran 1369."""
    key = ("cycles", *schedule_key(body_tasks, ii, start, versions), trips, gather, barriers, one_pass, runtime)
    return p.remembered(key, lambda: _replayed_cycles(p, body_tasks, ii, start, versions, trips, gather, barriers,
                                                      one_pass, runtime))


def _replayed_cycles(p: LoopProblem, body_tasks: int, ii: int, start: list[int], versions: dict[str, int],
                     trips: int, gather: bool, barriers: bool, one_pass: bool, runtime: bool) -> int:
    code = code_of(p, body_tasks, ii, start, versions, gather, None if runtime else max(trips, 1), barriers, one_pass,
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
    return code_of(p, body_tasks, ii, start, versions, gather).modelled


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
    weigh (gathered_choice `_mix_code_cycles`, modulo_schedule `_both_cores_as_run`)."""
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
