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
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

from ascend_mlir import hardware

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
            token = dict(self.know[p])
            if p in self.last:
                token[p] = self.last[p]
            self.pending.setdefault((p, ev[2], key), deque()).append(token)
        elif kind == "wait":
            _, p, q, key = ev
            queue = self.pending.get((p, q, key))
            if queue:
                self.merge(q, queue.popleft())
            # the wait is an op of q: later sets on q carry it
            self.last[q] = seq
            if wait_seen is not None:
                wait_seen(ev, seq)

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
) -> dict[tuple[int, int], int]:
    """Run the block `copies` times; returns the sequence number of each (copy, item).
    `probe(copy, item, clock)` is called before each item issues (after its waits);
    `on_set(event, copy, clock)` before each set; a True return stops the run."""
    clock = _Clock()
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
            clock.issue(pipes, seq, idx < len(model.joint) and model.joint[idx])
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


def set_after_wait(model: BlockModel, key_of: Callable[[Event], Hashable], flag: Hashable, period: int) -> bool:
    """Whether every set of `flag` (matched by `key_of(event) == flag`) in pass k + period
    is ordered after its wait in pass k (so the flag is never set twice): checked over
    period + 1 passes, with each wait as an op of its pipe."""
    waits: dict[int, tuple[str, int]] = {}  # copy -> (wait pipe, seq)
    ok = [True]

    def seen(ev: Event, seq: int, copy: int) -> None:
        if key_of(ev) == flag:
            waits.setdefault(copy, (ev[2], seq))

    def on_set(ev: Event, copy: int, clock: _Clock) -> bool:
        if key_of(ev) != flag or copy < period:
            return False
        prior = waits.get(copy - period)
        if prior is None:
            return False
        pipe, seq = prior
        if clock.know[ev[1]].get(pipe, -1) < seq:
            ok[0] = False
            return True
        return False

    simulate(model, period + 1, on_set=on_set, wait_seen=seen)
    return ok[0]
