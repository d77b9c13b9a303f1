"""Flags in place of the straight-line barriers ascend-insert-sync fell back to (a helper of it).

Where a flag of code in no loop finds no event id, ascend-insert-sync puts a
pipe_barrier[<PIPE_ALL>] before its consumer instead, which also stands for every flag of
the block set before it and waited after it. The allocation that found no id reasons
about whole items: a flag of the prologue of a pipelined loop shares an id with a flag
of the loop only where the loop as a whole starts after the prologue's wait
(`Turns.apart`). Finer orders it does not see: the loop's flag of that id may be set
only after an op that waits for the prologue's consumer (a buffer the loop writes again
is released by the prologue's store). The loop then holds every id of the pair, and
each of the prologue's hand-offs waits for every pipe (wide unseen seed 202 on the
910B, one trip: 5 pipe_barrier[<PIPE_ALL>]s in the prologue, 1831 cycles against
program order's 1503).

So the barriers are tried again once the code stands. Each flag a barrier stands for
takes its likeliest id (`_candidates`: none the code between its producer and consumer
uses, none still set, none a loop at either end uses; the id used longest ago first):
all barriers at once, then each on its own; where that does not verify, the barrier's
flags one at a time, each under the first candidate under which ascend-verify-sync
passes the function (the barrier still in place for the ones not yet flagged), and the
barrier goes where the function verifies without it. ascend-verify-sync judges the code
as it will run, so an id is shared only where every run orders the two users. A barrier
whose flags do not all verify stays, with its remark.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.ir import Operation
from xdsl.rewriter import InsertPoint

from ascend_mlir.dialects import hivm

# how much checking a function's fallbacks may take, in ops verified: each verify-sync
# run of the function counts its ops (a run takes 60 ms at 433 ops, wide unseen seed 202;
# 230 ms at 979, 24 chains of 5 on the 910B, where a budget of 64 runs doubled the
# compile). Beyond it the barriers stay, and the same ones on every machine.
VERIFY_BUDGET_OPS = 6000


@dataclass
class HandOff:
    """One dependence a fallback barrier stands for: set after `producer` on `set_pipe`,
    waited before `consumer` on `wait_pipe` (hivm pipe names); `pair`: the pipe pair as
    the caller keys its ids."""

    producer: Operation
    consumer: Operation
    set_pipe: str
    wait_pipe: str
    pair: Hashable


@dataclass
class Fallback:
    """A straight-line pipe_barrier[<PIPE_ALL>] in place of flags, and its remark."""

    barrier: Operation
    hand_offs: list[HandOff]
    remark: tuple[Operation, str]


def flag_fallbacks(fallbacks: Sequence[Fallback], ids: Callable[[Hashable], list[int]],
                   verifies: Callable[[], bool], ops: int) -> list[Fallback]:
    """Replace each fallback barrier by flags where the function verifies with them
    (`ids(pair)`: the ids of a pipe pair to try, in order; `verifies()`: the function,
    as it stands, passes ascend-verify-sync; `ops`: the function's size, what one
    verify costs of VERIFY_BUDGET_OPS). Returns the fallbacks whose barrier stays.
    All of them at once with each hand-off's likeliest id first (one run where that
    verifies), then each fallback on its own."""
    mender = _Mender(ids, verifies, max(ops, 1))
    if len(fallbacks) > 1 and mender.all_at_once(fallbacks):
        return []
    return [fallback for fallback in fallbacks if not mender.replace(fallback)]


class _Mender:
    def __init__(self, ids: Callable[[Hashable], list[int]], verifies: Callable[[], bool], cost: int):
        self.ids = ids
        self.verifies = verifies
        self.cost = cost
        self.budget = VERIFY_BUDGET_OPS

    def can_check(self) -> bool:
        return self.budget >= self.cost

    def check(self) -> bool:
        self.budget -= self.cost
        return self.verifies()

    def all_at_once(self, fallbacks: Sequence[Fallback]) -> bool:
        placed: list[tuple[Operation, Operation]] = []
        for fallback in fallbacks:
            flags = self._placed(fallback, self._first_candidate)
            if flags is None:
                _erase(placed)
                return False
            placed += flags
        return self._without_barriers(fallbacks, placed)

    def replace(self, fallback: Fallback) -> bool:
        """Flags for `fallback`'s hand-offs and its barrier gone, where that verifies: each
        hand-off's likeliest id first, checked once without the barrier; else one
        hand-off at a time, each under the first id that verifies with the barrier
        still there, and the barrier last."""
        if not self.can_check():
            return False
        placed = self._placed(fallback, self._first_candidate)
        if placed is not None and self._without_barriers([fallback], placed):
            return True
        placed = self._placed(fallback, self._verified)
        return placed is not None and self._without_barriers([fallback], placed)

    def _placed(self, fallback: Fallback, place) -> list[tuple[Operation, Operation]] | None:
        placed: list[tuple[Operation, Operation]] = []
        for hand_off in fallback.hand_offs:
            flag = place(hand_off)
            if flag is None:
                _erase(placed)
                return None
            placed.append(flag)
        return placed

    def _without_barriers(self, fallbacks: Sequence[Fallback], placed: list[tuple[Operation, Operation]]) -> bool:
        """The fallbacks' barriers gone where the function verifies so (with the flags
        `placed`); else the barriers back where they stood and the flags erased."""
        if not self.can_check():
            _erase(placed)
            return False
        places = []
        for fallback in fallbacks:
            after = fallback.barrier.next_op
            assert after is not None
            places.append(after)
            fallback.barrier.detach()
        if self.check():
            for fallback in fallbacks:
                fallback.barrier.erase()
            return True
        # the last first: a barrier right before the next one goes back before it
        for fallback, after in reversed(list(zip(fallbacks, places, strict=True))):
            Builder(InsertPoint.before(after)).insert(fallback.barrier)
        _erase(placed)
        return False

    def _first_candidate(self, hand_off: HandOff) -> tuple[Operation, Operation] | None:
        candidates = _candidates(hand_off, self.ids(hand_off.pair))
        return _insert_flag(hand_off, candidates[0]) if candidates else None

    def _verified(self, hand_off: HandOff) -> tuple[Operation, Operation] | None:
        """A set/wait pair for `hand_off` under the first candidate id that verifies."""
        for event in _candidates(hand_off, self.ids(hand_off.pair)):
            if not self.can_check():
                return None
            flag = _insert_flag(hand_off, event)
            if self.check():
                return flag
            _erase([flag])
        return None


def _candidates(hand_off: HandOff, ids: list[int]) -> list[int]:
    """The ids worth verifying for `hand_off`, likeliest first. Not tried (verify-sync
    would refuse them): ids the code between the producer and the consumer uses (the
    new set would find the id set, or set it before that user's wait), ids set before
    the producer and not waited since (`_pending_at`), ids a loop that is the producer
    uses (its last pass's waits are not ordered before the new set) or the consumer
    (its first pass's sets are not ordered after the new wait: narrow seed 80 on the
    910B, 8 ids tried, none verified), and every id where one of those is computed at
    run time. The id used longest ago comes first: a wait there is likelier ordered
    before the new set (program order is not enough across pipes: the earlier wait is
    on the wait pipe, the new set on the set pipe)."""
    skip = (_ids_used(hand_off, _ops_between(hand_off.producer, hand_off.consumer))
            | _pending_at(hand_off) | _ids_used(hand_off, [hand_off.producer, hand_off.consumer]))
    if None in skip:  # an id computed at run time (a ring's) may be any of them
        return []
    last_use = _last_uses(hand_off)
    return sorted((v for v in ids if v not in skip), key=lambda v: last_use.get(v, -1))


def _insert_flag(hand_off: HandOff, event: int) -> tuple[Operation, Operation]:
    set_op = hivm.SetFlagOp(hand_off.set_pipe, hand_off.wait_pipe, event)
    wait_op = hivm.WaitFlagOp(hand_off.set_pipe, hand_off.wait_pipe, event)
    Builder(InsertPoint.after(hand_off.producer)).insert(set_op)
    Builder(InsertPoint.before(hand_off.consumer)).insert(wait_op)
    return set_op, wait_op


def _ops_between(first: Operation, last: Operation) -> list[Operation]:
    """The ops strictly between two ops of one block."""
    ops: list[Operation] = []
    op = first.next_op
    while op is not None and op is not last:
        ops.append(op)
        op = op.next_op
    return ops


def _of_pair(op: hivm.SetFlagOp | hivm.WaitFlagOp, hand_off: HandOff) -> bool:
    """Whether a set or wait is of `hand_off`'s pipe pair."""
    return (op.set_pipe.pipe_name, op.wait_pipe.pipe_name) == (hand_off.set_pipe, hand_off.wait_pipe)


def _ids_used(hand_off: HandOff, ops: list[Operation]) -> set[int | None]:
    """The ids of `hand_off`'s pipe pair that a set or wait in `ops` (or inside them)
    uses; None for an id computed at run time (any of them)."""
    return {op.event_id for outer in ops for op in outer.walk()
            if isinstance(op, hivm.SetFlagOp | hivm.WaitFlagOp) and _of_pair(op, hand_off)}


def _uses_before(hand_off: HandOff) -> list[hivm.SetFlagOp | hivm.WaitFlagOp]:
    """The sets and waits of the pair in the block before the producer, in program order."""
    uses: list[hivm.SetFlagOp | hivm.WaitFlagOp] = []
    op = hand_off.producer.prev_op
    while op is not None:
        if isinstance(op, hivm.SetFlagOp | hivm.WaitFlagOp) and _of_pair(op, hand_off):
            uses.append(op)
        op = op.prev_op
    return uses[::-1]


def _pending_at(hand_off: HandOff) -> set[int | None]:
    """The ids of the pair whose last set or wait in the block before the producer is a
    set (one of an earlier hand-off, waited later; None: an id computed at run time)."""
    last: dict[int | None, bool] = {}
    for op in _uses_before(hand_off):
        last[op.event_id] = isinstance(op, hivm.SetFlagOp)
    return {event for event, is_set in last.items() if is_set}


def _last_uses(hand_off: HandOff) -> dict[int | None, int]:
    """Per id of the pair, the position of its last use in the block before the producer."""
    return {op.event_id: k for k, op in enumerate(_uses_before(hand_off))}


def _erase(pairs: list[tuple[Operation, Operation]]) -> None:
    for set_op, wait_op in pairs:
        set_op.detach()
        set_op.erase()
        wait_op.detach()
        wait_op.erase()
