"""Happens-before over one block's items, on plain data: the model `ascend-insert-sync`
uses to decide whether a dependence is already covered (transitively, by flags and
barriers placed so far) and whether a flag can be set again before its last wait ran.

A block is a list of items (program order); an item occupies pipes (a hivm op: its own;
a nested loop or if: every pipe used inside). Sync events sit before or after items:
`("set", P, Q, key)`, `("wait", P, Q, key)`, `("barrier", P)` (P may be "ALL"). A loop
body is unrolled `copies` times; a key may depend on the copy (a per-version event id).

Clock rule (the hardware's, DESIGN.md section 8): `know[X][Y] = n` means the items of
pipe Y up to sequence number n completed before pipe X's next op starts. An op issues
after the earlier ops of its pipe, but only a barrier or a flag orders their completion:
set_flag on P carries know[P] plus P's own issued ops, wait_flag on Q merges it into
know[Q], pipe_barrier[P] makes P's issued ops known to P, pipe_barrier[ALL] everything.

Pipe names are opaque strings; a MIX kernel qualifies them by core ("CUBE:FIX",
"VECTOR:V"), and `("barrier", "ALL:<prefix>")` drains only the pipes with that prefix
(one core's pipe_barrier[<PIPE_ALL>]); plain "ALL" drains every pipe.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Callable, Collection, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import count
from typing import Any, TypeVar

from ascend_mlir import hardware

_Flag = TypeVar("_Flag", bound=Hashable)

Event = tuple  # ("set"|"wait", P, Q, key) | ("barrier", P)


@dataclass
class BlockModel:
    """Items of a block with the sync events attached before/after each item."""

    pipes: Sequence[frozenset[str]]  # per item
    # per item: one instruction on all its pipes (mmadL1), not a nested loop or if
    joint: Sequence[bool] = ()
    before: dict[int, list[Callable[[int], Event]]] = field(default_factory=dict)
    after: dict[int, list[Callable[[int], Event]]] = field(default_factory=dict)
    # events that are items themselves (existing sync ops in the block), by item index
    inline: dict[int, Callable[[int], list[Event]]] = field(default_factory=dict)
    # per item (a nested loop that runs at least once): for each pipe Y, the pipes X
    # whose ops issued before the item complete before Y's ops after it (`orders_within`)
    orders: dict[int, dict[str, frozenset[str]]] = field(default_factory=dict)


@dataclass
class _Clock:
    know: defaultdict[str, dict[str, int]] = field(default_factory=lambda: defaultdict(dict))
    last: dict[str, int] = field(default_factory=dict)
    pending: dict[Hashable, deque] = field(default_factory=dict)

    def merge(self, pipe: str, token: dict[str, int]) -> None:
        mine = self.know[pipe]
        for k, v in token.items():
            if v > mine.get(k, -1):
                mine[k] = v

    def apply(self, ev: Event, seq: int, wait_seen: Callable[[Event, int], None] | None = None) -> None:
        kind = ev[0]
        if kind == "barrier":
            if ev[1] == "ALL" or ev[1].startswith("ALL:"):
                prefix = ev[1][4:]
                drained = {p: n for p, n in self.last.items() if p.startswith(prefix)}
                # what any drained pipe knew, every pipe of the core knows now
                for p in [p for p in self.know if p.startswith(prefix)]:
                    for k, v in self.know[p].items():
                        drained[k] = max(drained.get(k, -1), v)
                targets = {prefix + p for p in hardware.PIPES} | {p for p in self.know if p.startswith(prefix)}
                for p in targets | set(drained):
                    self.merge(p, drained)
            elif ev[1] in self.last:
                self.merge(ev[1], {ev[1]: self.last[ev[1]]})
        elif kind == "set":
            _, p, _, key = ev
            self.pending.setdefault((p, ev[2], key), deque()).append(self.token(p))
        elif kind == "wait":
            _, p, q, key = ev
            queue = self.pending.get((p, q, key))
            if queue:
                self.merge(q, queue.popleft())
            # the wait is an op of q: later sets on q carry it
            self.last[q] = seq
            if wait_seen is not None:
                wait_seen(ev, seq)

    def token(self, pipe: str) -> dict[str, int]:
        """What an op issued on `pipe` now carries once it completes: what the pipe knows,
        and the pipe's own issued ops."""
        token = dict(self.know[pipe])
        if pipe in self.last:
            token[pipe] = self.last[pipe]
        return token

    def issue(self, pipes: frozenset[str], seq: int, joint: bool = False) -> None:
        if joint and len(pipes) > 1:
            # one instruction on several pipes (mmadL1) starts after what each knew
            joined: dict[str, int] = {}
            for p in pipes:
                for k, v in self.know[p].items():
                    joined[k] = max(joined.get(k, -1), v)
            for p in pipes:
                self.merge(p, joined)
        for p in pipes:
            self.last[p] = seq


def simulate(
    model: BlockModel,
    copies: int,
    probe: Callable[[int, int, _Clock], bool] | None = None,
    on_set: Callable[[Event, int, _Clock], bool] | None = None,
    wait_seen: Callable[[Event, int, int], None] | None = None,
    clock: _Clock | None = None,
) -> dict[tuple[int, int], int]:
    """Run the block `copies` times (from `clock`, else from nothing known); returns the
    sequence number of each (copy, item). `probe(copy, item, clock)` is called before
    each item issues (after its waits); `on_set(event, copy, clock)` before each set; a
    True return stops the run."""
    clock = clock if clock is not None else _Clock()
    seqs: dict[tuple[int, int], int] = {}
    seq = 0
    for copy in range(copies):
        seen = None if wait_seen is None else (lambda ev, s, c=copy: wait_seen(ev, s, c))
        for idx, pipes in enumerate(model.pipes):
            for make in model.before.get(idx, ()):
                seq += 1
                clock.apply(make(copy), seq, seen)
            if probe is not None and probe(copy, idx, clock):
                return seqs
            seq += 1
            seqs[(copy, idx)] = seq
            inline = model.inline.get(idx)
            for ev in inline(copy) if inline is not None else ():
                if ev[0] == "set" and on_set is not None and on_set(ev, copy, clock):
                    return seqs
                clock.apply(ev, seq, seen)
            orders = model.orders.get(idx)
            entry = {x: clock.token(x) for xs in orders.values() for x in xs} if orders else {}
            clock.issue(pipes, seq, idx < len(model.joint) and model.joint[idx])
            for y, xs in (orders or {}).items():
                for x in xs:
                    clock.merge(y, entry[x])
            for make in model.after.get(idx, ()):
                seq += 1
                ev = make(copy)
                if ev[0] == "set" and on_set is not None and on_set(ev, copy, clock):
                    return seqs
                clock.apply(ev, seq, seen)
    return seqs


def covered(model: BlockModel, src: int, dst: int, src_pipe: str, dst_pipe: str, distance: int) -> bool:
    """Whether the item `src` (its `src_pipe` part) completes before item `dst` of the
    iteration `distance` later (0: the same pass over the block) starts on `dst_pipe`."""
    if src >= len(model.pipes):
        return False
    # the sequence number `simulate` gives item src of the first pass: one per event
    # before or after each earlier item, one per item (inline events take none)
    target = src + 1 + len(model.before.get(src, ()))
    for idx in range(src):
        target += len(model.before.get(idx, ())) + len(model.after.get(idx, ()))
    result = [False]

    def probe(copy: int, idx: int, clock: _Clock) -> bool:
        if copy == distance and idx == dst:
            result[0] = clock.know[dst_pipe].get(src_pipe, -1) >= target
            return True
        return False

    simulate(model, distance + 1, probe=probe)
    return result[0]


class Coverage:
    """`covered` for many dependences over one model, asked in increasing (distance, dst)
    order: one run of the block, resumed from query to query instead of started again
    (the sync pass asks one per dependence, most of them already covered)."""

    def __init__(self, model: BlockModel):
        self.model = model
        self.steps = self._steps()
        self.at = (-1, -1)
        self.clock = _Clock()
        self.seqs: dict[int, int] = {}  # item -> its sequence number in the first pass

    def _steps(self) -> Iterator[tuple[int, int, _Clock]]:
        """`simulate` without callbacks, pass after pass, stopping before each item issues
        (after its waits)."""
        model, clock, seq = self.model, self.clock, 0
        for copy in count():
            for idx, pipes in enumerate(model.pipes):
                for make in model.before.get(idx, ()):
                    seq += 1
                    clock.apply(make(copy), seq)
                yield copy, idx, clock
                seq += 1
                if copy == 0:
                    self.seqs[idx] = seq
                inline = model.inline.get(idx)
                for ev in inline(copy) if inline is not None else ():
                    clock.apply(ev, seq)
                clock.issue(pipes, seq, idx < len(model.joint) and model.joint[idx])
                for make in model.after.get(idx, ()):
                    seq += 1
                    clock.apply(make(copy), seq)

    def covered(self, src: int, dst: int, src_pipe: str, dst_pipe: str, distance: int) -> bool | None:
        """As `covered(model, ...)`; None when asked for an earlier point than the last."""
        if src >= len(self.model.pipes) or dst >= len(self.model.pipes):
            return False
        if (distance, dst) < self.at:
            return None
        while self.at != (distance, dst):
            copy, idx, _ = next(self.steps)
            self.at = (copy, idx)
        if src not in self.seqs:  # src issues after dst in the first pass: its number
            return covered(self.model, src, dst, src_pipe, dst_pipe, distance)
        return self.clock.know[dst_pipe].get(src_pipe, -1) >= self.seqs[src]


def set_after_wait(model: BlockModel, key_of: Callable[[Event], Hashable], flag: Hashable, period: int) -> bool:
    """Whether every set of `flag` (matched by `key_of(event) == flag`) in pass k + period
    is ordered after its wait in pass k (so the flag is never set twice): checked over
    period + 1 passes, with each wait as an op of its pipe. (`set_after_own_wait` at
    distance 0.)"""
    return set_after_own_wait(model, key_of, flag, 0, period)


def set_after_own_wait(model: BlockModel, key_of: Callable[[Event], Hashable], flag: Hashable,
                       distance: int, period: int) -> bool:
    """Whether every set of a loop-carried `flag` (set in pass k, waited in pass
    k + distance, one id per pass mod period, distance <= period) is ordered after the
    wait that consumed the previous set of its id: the set of pass k + period after the
    wait of pass k + distance. (`set_after_wait` compares it with the wait of pass k,
    which consumed the set of pass k - distance: for a carried flag that is one
    wait too early.) Checked over period + 1 passes, with each wait as an op of its pipe."""
    waits: dict[int, tuple[str, int]] = {}  # copy -> (wait pipe, seq)
    ok = [True]

    def seen(ev: Event, seq: int, copy: int) -> None:
        if key_of(ev) == flag:
            waits.setdefault(copy, (ev[2], seq))

    def on_set(ev: Event, copy: int, clock: _Clock) -> bool:
        if key_of(ev) != flag or copy < period:
            return False
        prior = waits.get(copy - period + distance)
        if prior is None:
            return False
        pipe, seq = prior
        if clock.know[ev[1]].get(pipe, -1) < seq:
            ok[0] = False
            return True
        return False

    simulate(model, period + 1, on_set=on_set, wait_seen=seen)
    return ok[0]


def sets_after_waits(model: BlockModel, key_of: Callable[[Event], Hashable], flags: Collection[_Flag],
                     period: int, distances: Mapping[Any, int] | None = None) -> set[_Flag]:
    """The flags of `flags` for which `set_after_wait(model, key_of, flag, period)` holds,
    from one run of the block (the replay asks it of every flag of a loop body: one run
    each was a fifth of a wide loop's compile). A run is the same whichever flag it
    watches; the single check only stops at its flag's first failure. `distances`: per
    flag, the passes it is carried over, for `set_after_own_wait(..., distance, period)`
    instead (a carried flag's own wait)."""
    distances = distances or {}
    waits: dict[tuple[Hashable, int], tuple[str, int]] = {}
    failed: set[Hashable] = set()

    def seen(ev: Event, seq: int, copy: int) -> None:
        flag = key_of(ev)
        if flag in flags:
            waits.setdefault((flag, copy), (ev[2], seq))

    def on_set(ev: Event, copy: int, clock: _Clock) -> bool:
        flag = key_of(ev)
        if copy < period or flag not in flags or flag in failed:
            return False
        prior = waits.get((flag, copy - period + distances.get(flag, 0)))
        if prior is not None and clock.know[ev[1]].get(prior[0], -1) < prior[1]:
            failed.add(flag)
        return False

    simulate(model, period + 1, on_set=on_set, wait_seen=seen)
    return {flag for flag in flags if flag not in failed}


def orders_within(model: BlockModel, primed: Collection[tuple[str, str, Hashable]] = ()) -> dict[str, frozenset[str]]:
    """For one pass over a loop body (the loop runs at least once): for each pipe Y, the
    other pipes X whose ops issued before the loop complete before Y's ops after it,
    through the body's flags and barriers. `primed`: the (set pipe, wait pipe, key) of
    the loop-carried flags set once before the loop (their first pass's waits consume
    those sets). A later pass only adds to what a pipe knows, so one pass is the least
    any trip count >= 1 gives."""
    clock = _Clock()
    pipes = {p for item in model.pipes for p in item}
    for p in pipes:
        clock.last[p] = 0  # every op before the loop: sequence numbers in the run start at 1
    for set_pipe, wait_pipe, key in primed:
        clock.pending.setdefault((set_pipe, wait_pipe, key), deque()).append({set_pipe: 0})
    simulate(model, 1, clock=clock)
    return {y: frozenset(x for x in pipes if x != y and clock.know[y].get(x, -1) >= 0) for y in pipes}


class Turns:
    """Which flags of one block may share an event id although both live at once: flags
    of one pipe pair, each set once per pass and waited in the same pass, where each
    one's wait happens before the other's next set (this pass, and around the back edge
    of a loop), so the id is never set twice. Happens-before is read from one run of the
    block's model (`simulate`) with every flag on its own key, which is also
    the run with shared ids, as the waits then consume the same sets."""

    def __init__(self, model: BlockModel, flags: Sequence[Any], loop: bool, nested: Collection[int] = ()):
        """`flags`: the block's flags as `ascend-insert-sync` plans them (src, dst,
        set_pipe, wait_pipe, distance, period, cross_core; keyed `(id(flag), version)` in
        the model); `loop`: the block is a loop body; `nested`: the items with regions."""
        self.loop = loop
        self.copies = 2 if self.loop else 1
        self.sets: dict[tuple[int, int], dict[str, int]] = {}  # (flag, copy) -> what its set carries
        self.waits: dict[tuple[int, int], int] = {}  # (flag, copy) -> the wait's sequence number
        ids = {id(f) for f in flags}

        def on_set(ev, copy: int, clock) -> bool:
            key = ev[3]
            if isinstance(key, tuple) and key and key[0] in ids:
                token = dict(clock.know[ev[1]])
                if ev[1] in clock.last:
                    token[ev[1]] = clock.last[ev[1]]
                self.sets.setdefault((key[0], copy), token)
            return False

        def seen(ev, seq: int, copy: int) -> None:
            key = ev[3]
            if isinstance(key, tuple) and key and key[0] in ids:
                self.waits.setdefault((key[0], copy), seq)

        # what each pipe knows when a nested loop or if starts (flags of the function
        # body against those inside its items)
        self.item_know: dict[int, dict[str, dict[str, int]]] = {}

        def probe(copy: int, idx: int, clock) -> bool:
            if copy == 0 and idx in nested:
                self.item_know[idx] = {p: dict(k) for p, k in clock.know.items()}
            return False

        self.seqs = simulate(model, self.copies, probe=probe, on_set=on_set, wait_seen=seen)

    @staticmethod
    def eligible(f: Any) -> bool:
        return not f.cross_core and f.distance == 0 and f.period == 1

    def before(self, first: Any, then: Any, copy: int, next_copy: int) -> bool:
        """`first`'s wait in pass `copy` happens before `then`'s set in pass `next_copy`."""
        wait = self.waits.get((id(first), copy))
        token = self.sets.get((id(then), next_copy))
        return wait is not None and token is not None and token.get(first.wait_pipe, -1) >= wait

    def apart(self, f: Any, item: int) -> bool:
        """Whether flag `f` of this (function) body is done with its id before the item
        `item` (a loop) starts on its set pipe, or sets it only after the item's part on
        its wait pipe completed: then the item's flags of the pair may take the id."""
        if f.dst < item:
            wait = self.waits.get((id(f), 0))
            know = self.item_know.get(item, {}).get(f.set_pipe, {})
            return wait is not None and know.get(f.wait_pipe, -1) >= wait
        if f.src > item:
            token = self.sets.get((id(f), 0))
            return token is not None and token.get(f.wait_pipe, -1) >= self.seqs[(0, item)]
        return False

    def take_turns(self, a: Any, b: Any) -> bool:
        if (a.set_pipe, a.wait_pipe) != (b.set_pipe, b.wait_pipe) or a.src == b.src:
            return False
        a, b = (a, b) if a.src < b.src else (b, a)
        if not all(self.before(a, b, c, c) for c in range(self.copies)):
            return False
        return not self.loop or self.before(b, a, 0, 1)
