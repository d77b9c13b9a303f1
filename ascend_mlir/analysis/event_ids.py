"""Event-id allocation for set_flag/wait_flag, on plain data (no IR).

Each flag asks for `width` consecutive ids (1, or one per buffer version for a flag that
cycles through versions) of its pipe pair, live over an interval of program positions
(the set's position to the wait's, or a whole loop for a loop-carried flag). Flags of
one pipe pair whose intervals overlap get disjoint ids; ids are reused once an interval
ends (greedy by start: optimal for interval graphs when every width is 1, whichever
free id each request takes). With `prefer_unused`, a request takes an id no earlier
request used whenever one is free, and reuses one only when it must (the one free for
longest): for flags whose reuse costs something (cross-core flags: a
pipe_barrier[<PIPE_ALL>] between the users, which one barrier may serve for several).
`shares(i, j)` says when requests i and j may hold one id although their intervals
overlap (the caller has proven that each one's wait happens before the other's next
set: flags of one loop body that take turns); the ids are then coloured greedily
under both rules. A request that does not fit gets None and the caller falls back (see
insert_sync).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from ascend_mlir import hardware


@dataclass(frozen=True)
class EventRequest:
    pair: Hashable  # (set pipe, wait pipe)
    start: int
    end: int  # inclusive
    width: int = 1


def allocate_events(
    requests: Sequence[EventRequest], ids_per_pair: int = hardware.EVENTS_PER_PIPE_PAIR,
    reserved: dict[Hashable, set[int]] | None = None, *, prefer_unused: bool = False,
    shares: Callable[[int, int], bool] | None = None,
) -> list[int | None]:
    """The first id of each request (its ids are first .. first + width - 1), or None."""
    order = sorted(range(len(requests)), key=lambda i: (requests[i].start, -requests[i].width, i))
    result: list[int | None] = [None] * len(requests)
    live: dict[Hashable, list[tuple[int, int, int, int]]] = {}  # pair -> (end, first, width, request)
    for i in order:
        r = requests[i]
        busy = set((reserved or {}).get(r.pair, set()))
        last_end: dict[int, int] = {}  # id -> the end of its latest user so far
        for end, first, width, holder in live.get(r.pair, []):
            for v in range(first, first + width):
                last_end[v] = max(last_end.get(v, end), end)
            if end >= r.start and not (shares is not None and shares(holder, i)):
                busy.update(range(first, first + width))
        candidates = range(0, ids_per_pair - r.width + 1)
        if prefer_unused:
            # never used first, then the one free for longest
            candidates = sorted(candidates, key=lambda f, w=r.width: (
                max((last_end.get(v, -1) for v in range(f, f + w)), default=-1), f))
        for first in candidates:
            if not busy & set(range(first, first + r.width)):
                result[i] = first
                live.setdefault(r.pair, []).append((r.end, first, r.width, i))
                break
    return result
