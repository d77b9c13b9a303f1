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

# at most this many ids past the fewest a flag set again before its wait could take
# (distance + 1 for a carried flag, one per version for one waited in its own pass): a
# ring of them where it orders the next set of an id after its wait, before a credit
# flag back, whose set drains its pipe every pass (ascend-insert-sync's `_no_double_set`,
# and the replay's copy of it in scheduling/code_flags.py)
RING_EXTRA_IDS = 2
# and never more than this many: verify-sync runs a long loop of constant trips as 12 +
# trips mod 12 passes, which keeps a ring of k ids in its phase for k <= 4 only
RING_MAX_IDS = 4


def ring_sizes(fewest: int, extra_ids: int = RING_EXTRA_IDS) -> range:
    """The ids a ring may take, from `fewest`: at most `extra_ids` more and `RING_MAX_IDS`."""
    return range(fewest, min(fewest + extra_ids, RING_MAX_IDS) + 1)


@dataclass(frozen=True)
class EventRequest:
    pair: Hashable  # (set pipe, wait pipe)
    start: int
    end: int  # inclusive
    width: int = 1
    # where the flag is first used, when its interval starts before (the order requests
    # choose in: a flag of the function body holds its ids from the function's start,
    # but chooses after the loops before it, as it did when it held them from its use)
    first_use: int | None = None

    @property
    def order(self) -> int:
        return self.start if self.first_use is None else self.first_use


def allocate_events(
    requests: Sequence[EventRequest], ids_per_pair: int = hardware.EVENTS_PER_PIPE_PAIR,
    reserved: dict[Hashable, set[int]] | None = None, *, prefer_unused: bool = False,
    shares: Callable[[int, int], bool] | None = None, fixed: dict[int, int] | None = None,
    rank: Sequence[int] | None = None,
) -> list[int | None]:
    """The first id of each request (its ids are first .. first + width - 1), or None.
    `fixed`: requests whose first id is already chosen (request -> id); the others avoid
    their ids where the intervals overlap. `rank`: requests of a lower rank choose first
    (the flags of a loop before those of straight-line code, which a short id costs less),
    by `order` within a rank."""
    fixed = fixed or {}
    ranks = rank or [0] * len(requests)
    order = sorted(range(len(requests)), key=lambda i: (ranks[i], requests[i].order, -requests[i].width, i))
    result: list[int | None] = [fixed.get(i) for i in range(len(requests))]
    live: dict[Hashable, list[tuple[int, int, int, int]]] = {}  # pair -> (end, first, width, request)
    pinned: dict[Hashable, list[tuple[int, int]]] = {}  # pair -> (request, first)
    for i, first in fixed.items():
        pinned.setdefault(requests[i].pair, []).append((i, first))
    for i in order:
        r = requests[i]
        if i in fixed:
            continue
        busy = set((reserved or {}).get(r.pair, set()))
        for j, first in pinned.get(r.pair, []):
            # a fixed request shares as any other does (`shares`: the loop of one branch
            # of an `if` and the straight-line code of the other; unseen seed 962 on
            # skewed.toml: the ring of the n <= 1 branch's loop held all six MTE2 -> V ids
            # against the pipelined branch's prologue, whose flags became barriers)
            other = requests[j]
            if other.start <= r.end and other.end >= r.start and not (shares is not None and shares(j, i)):
                busy.update(range(first, first + other.width))
        last_end: dict[int, int] = {}  # id -> the end of its latest user so far
        for end, first, width, holder in live.get(r.pair, []):
            for v in range(first, first + width):
                last_end[v] = max(last_end.get(v, end), end)
            overlaps = end >= r.start and requests[holder].start <= r.end
            if overlaps and not (shares is not None and shares(holder, i)):
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


# ----------------------------------------------------------------------------- rings
#
# Within one loop body, flags of one pipe pair set and waited in the same pass can take
# turns on fewer ids than there are flags, by lifetime. A flag set after item `src` and
# waited before item `dst` (src < dst, positions in the body) holds its id from `src` to
# `dst`; the body of a pipelined loop is in the schedule's order (offsets within the II),
# so positions are the schedule's time order modulo the II. Two consecutive users f, g of
# one id (g after f in the pass, or g the first user of the next pass) are apart when
# f.dst < g.src (around the back edge: f.dst < g.src + length, always true in positions);
# the hardware additionally needs f's wait to happen before g's set, which `credits`
# provides where nothing orders it yet.


@dataclass(frozen=True)
class Lifetime:
    """A flag of one pass over a loop body: set after item `src`, waited before item `dst`."""

    src: int
    dst: int


def ring_ids(lifetimes: Sequence[Lifetime], ids: int) -> tuple[list[list[int]], list[int]] | None:
    """Flags on `ids` ids by lifetime: groups of flags that become one (the fewest merges
    needed: interval colouring by start, the id free for longest first, which spreads the
    reuses out; where all ids are held, the new flag merges with the holder whose set is
    nearest, which delays that holder's consumer the least) and the id of each group, in
    order of the groups' sets. A merged flag is set after its latest producer and waited
    before its earliest consumer: always correct, only later. None when no merge can help
    (the holders' lifetimes end where the new one starts)."""
    order = sorted(range(len(lifetimes)), key=lambda i: (lifetimes[i].src, lifetimes[i].dst, i))
    groups: list[list[int]] = []
    spans: list[list[int]] = []  # per group: [src, dst] of the merged flag
    holder: dict[int, int] = {}  # id -> its latest group
    ids_of: list[int] = []
    for i in order:
        life = lifetimes[i]
        free = [v for v in range(ids) if v not in holder or spans[holder[v]][1] < life.src]
        if free:
            # the id free for longest (never used first), the lowest among equals
            v = min(free, key=lambda v: (spans[holder[v]][1] if v in holder else -1, v))
            holder[v] = len(groups)
            groups.append([i])
            spans.append([life.src, life.dst])
            ids_of.append(v)
            continue
        mergeable = [g for g in holder.values() if min(spans[g][1], life.dst) > life.src]
        if not mergeable:
            return None
        g = max(mergeable, key=lambda g: (spans[g][0], -g))
        groups[g].append(i)
        spans[g] = [life.src, min(spans[g][1], life.dst)]
    return groups, ids_of


@dataclass(frozen=True)
class Carried:
    """A loop-carried flag of one pipe pair: set after item `src` of a pass, waited before
    item `dst` of the pass `distance` later, on `ids` ids; `at`: its set point's start
    within the pass (None: the loop is not scheduled)."""

    src: int
    dst: int
    distance: int
    ids: int
    at: int | None = None

    @property
    def forward(self) -> bool:
        return self.src < self.dst

    def merged_with(self, other: Carried) -> Carried:
        """One flag for both: set after the later producer, waited before the earlier
        consumer, over the shorter distance on its ids (the more of them where equal)."""
        nearer = self if (self.distance, -self.ids) <= (other.distance, -other.ids) else other
        return Carried(max(self.src, other.src), min(self.dst, other.dst), nearer.distance, nearer.ids,
                       self.at if self.src > other.src else other.at)


def merge_carried(flags: Sequence[Carried], excess: int) -> list[list[int]]:
    """Carried flags that become one until they take `excess` ids fewer (or no two can
    merge): groups of indices into `flags`, in order of their sets. Two flags merge when
    the merged one keeps their direction: set after the later producer, waited before the
    earlier consumer, over the shorter distance (the consumer then waits for a later pass's
    set, which follows the earlier pass's on its pipe), on that distance's ids. Always
    correct, only later. Flags of one distance merge first, then the pair whose sets stand
    closest (in time when the loop is scheduled, else in set order): that delays the
    consumers the least. A carried flag's consumer waits passes for it: a buffer's next
    version freed by a later op of the same pipe in the same pass costs it little (unseen
    seed 41 on a chip of 4 ids: three V -> MTE2 flags of two ids each, which the ring of
    one pass cannot take, were pipe_barrier[<PIPE_ALL>]s: written 530, ran 1408; seed 75:
    two MTE3 -> MTE2 flags of one set, over 2 and 3 passes, 5 ids)."""
    order = sorted(range(len(flags)), key=lambda i: (flags[i].src, flags[i].dst, i))
    rank = {i: n for n, i in enumerate(order)}
    groups = [[i] for i in order]
    merged = [flags[i] for i in order]
    saved = 0
    while saved < excess:
        best: tuple | None = None
        for a in range(len(groups)):
            for b in range(a + 1, len(groups)):
                x, y = merged[a], merged[b]
                if x.forward != y.forward:
                    continue
                joined = x.merged_with(y)
                if joined.forward != x.forward:
                    continue
                timed = x.at is not None and y.at is not None
                gap = abs(x.at - y.at) if timed else 0  # type: ignore[operator]
                cost = (abs(x.distance - y.distance), gap, abs(rank[groups[a][-1]] - rank[groups[b][0]]), a, b)
                if best is None or cost < best[0]:
                    best = (cost, a, b, joined)
        if best is None:
            break
        _, a, b, joined = best
        saved += merged[a].ids + merged[b].ids - joined.ids
        groups[a] = sorted(groups[a] + groups[b], key=rank.__getitem__)
        merged[a] = joined
        del groups[b], merged[b]
    return groups


def ring_edges(ids_of: Sequence[int]) -> list[tuple[int, int, int]]:
    """The reuses of each id among flags (`ids_of`: their ids, the flags in order of their
    sets): (earlier flag, next flag, 0 when the next one is in the same pass or 1 when it
    is the first user in the next pass). A flag alone on its id reuses it itself in the
    next pass."""
    users: dict[int, list[int]] = {}
    for i, v in enumerate(ids_of):
        users.setdefault(v, []).append(i)
    edges = []
    for v in sorted(users):
        chain = users[v]
        edges += [(a, b, 0) for a, b in zip(chain, chain[1:], strict=False)]
        edges.append((chain[-1], chain[0], 1))
    return edges


def credits(needs: Sequence[tuple[int, int, int]], length: int) -> list[tuple[int, int, int]]:
    """The fewest orderings that cover `needs`: each (a, b, wrap) asks that something after
    item a of a pass happen before item b of the same pass (wrap 0) or of the next one
    (wrap 1). An ordering (x, y, distance) (a flag set after item x, waited before item y
    of the pass `distance` later) covers every need with a <= x and b >= y: interval
    stabbing on the unrolled passes, greedy by the latest allowed point (the fewest
    orderings), each then as loose as its needs allow (set after the latest a, waited
    before the earliest b)."""
    intervals = sorted({(a, b + wrap * length) for a, b, wrap in needs}, key=lambda t: (t[1], t[0]))
    out: list[tuple[int, int, int]] = []
    covered = [False] * len(intervals)
    for i, (_, b0) in enumerate(intervals):
        if covered[i]:
            continue
        point = b0 - 1  # the latest set point the first open need allows
        group = [j for j in range(i, len(intervals)) if not covered[j] and intervals[j][0] <= point]
        for j in group:
            covered[j] = True
        x = max(intervals[j][0] for j in group)
        y = min(intervals[j][1] for j in group)
        out.append((x, y % length, y // length))
    return sorted(set(out))
