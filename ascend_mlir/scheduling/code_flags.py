"""Where a loop body's sets stand once its pipe pairs run short of event ids, IR-free:
what `ascend-insert-sync` does then (`_Emitter.allocate`), for the replay of the code
(`realize.py`), with the same rules (`analysis.flag_sets`, `analysis.event_ids`).

A loop body whose flags of one pipe pair need more ids than the chip has
(`flag_sets.short_set_pipes`) has its set pipe's sets gathered at the fewest points
(`flag_sets.set_points(..., fewest)`): a consumer then waits for a set after the ops of
other chains (chains16x8, 16 loads and 16 stores a pass on 8 ids: its stores wait for a
set after the vector ops of half the chains; replayed without this at 3999 cycles an
iteration, run at 3612, with it 3679). Where a pair is still short, its carried flags
merge as far as that frees the ids (`event_ids.merge_carried`), then its flags of one
pass take turns on the ids it has free (`event_ids.ring_ids`, merged where more are
live at once than there are ids) and a credit flag back (wait pipe -> set pipe,
`event_ids.credits`) orders each reuse that nothing orders yet: a store lets the vector
op of a chain eight flags on go on. Whether something orders a reuse is asked of the
replay's own model of the block's flags at their points (`ordered`: an item completes
before another of the same or the next pass), where insert-sync asks whether a wait
happens before a set: the replay may add a credit insert-sync does not. Where the
credits leave their pair short, its carried flags, credits among them, merge again as
insert-sync merges them after its rings (`_merged_with_credits`). Where the ring does not fit
either, insert-sync puts a pipe_barrier[<PIPE_ALL>] in (not modelled: the sets stay as
gathered).

The flags at their points as a block model (`flag_model`, and `again_of` for the
question above) and the order insert-sync emits one point's sets in (`set_order`) are
here too: the replay builds its code from them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import reduce

from ascend_mlir.analysis import flag_sets, sync_plan
from ascend_mlir.analysis.event_ids import (
    RING_EXTRA_IDS,
    Carried,
    Lifetime,
    credits,
    merge_carried,
    ring_edges,
    ring_ids,
    ring_sizes,
)

# ordered(points, a, b, pipe_a, pipe_b, wrap): with the sets at `points`, item a (its
# pipe_a part) completes before item b of the same pass (wrap 0) or the next (wrap 1)
# starts on pipe_b
Ordered = Callable[[list[int], int, int, str, str, int], bool]
# again(points, ks, period, own): with the sets at `points`, the releases of `ks` whose
# flag on `period` ids is set again (`period` passes on) only after its wait (`own`: after
# the wait that consumed its previous set of the id, a carried flag's `distance` passes on)
Again = Callable[[list[int], list[int], int, bool], set[int]]


def placed_sets(items: Sequence[flag_sets.Item], releases: Sequence[flag_sets.Release], ii: int | None,
                ids: int, ordered: Ordered, again_for: Callable[[list[flag_sets.Release]], Again] | None = None,
                runs: int | None = None,
                ) -> tuple[list[int], list[flag_sets.Release], bool, list[flag_sets.Release]]:
    """The item after which each release's set stands (`flag_sets.set_points`; `ii` None:
    a loop kept in program order, each set after its producer) and the credit flags the
    body gets, as insert-sync places them on `ids` event ids per pipe pair (module doc),
    whether that is all (False: insert-sync puts barriers in, which is not modelled), and
    the releases as synced (a merged carried flag's over its shortest distance, a carried
    flag no ring orders waited in its own pass: `_rings_or_within`).
    `again_for`: `Again` on the block with these releases' flags (`_no_double_set`; None:
    every flag is set again only after its wait, one id each); `runs`: how many times the
    body runs, when known."""
    points = flag_sets.set_points(items, releases, ii)
    releases, rings = _rings_or_within(releases, points, again_for)
    again = again_for(releases) if again_for is not None else None
    periods, back = _no_double_set(releases, points, again, runs, rings)
    fewest = _short_pipes(releases, points, back, periods, ids)
    if not fewest:
        # ids enough: the flags' extra ids change no set point, and their credits are
        # left out as before (the replay's block model sees credits where insert-sync's
        # finds the flag ordered: two chains in program order replayed at 580 cycles a
        # trip where the code runs 368)
        return points, [], True, releases
    # gathered from where the sets stand, as insert-sync gathers its flags once they are
    # merged at those points (unseen seed 1103 on three_ids: from the producers, the
    # first MTE2 point fell after eleven loads, where insert-sync's after five; replayed
    # 1152 cycles a pass, ran 1003)
    at_points = [replace(r, src=point) for r, point in zip(releases, points, strict=True)]
    points = flag_sets.set_points(items, at_points, ii, fewest)
    periods, back = _no_double_set(releases, points, again, runs, rings)
    keyed = _gathered_flags(releases, points, periods)
    points, merged, periods = _merged_carried(items, keyed, points, periods, back, ids)
    # as the flags insert-sync merged them (`_gathered_flags`, `_merged_carried`): set at
    # the flag's point, waited before its first consumer, so that their sets are the
    # flag's one (`set_key`: carried releases of both directions on as many ids, one set)
    releases = list(merged)
    ringed = _ringed(len(items), merged, points, ids, ordered, periods, back)
    if ringed is None:
        return points, back, False, releases
    # the pairs the rings took: their flags take turns on the ids (counted one each)
    on_rings = {pair for pair, n in flag_sets.ids_needed(
        [*merged, *back], [*points, *(c.src for c in back)], [*periods, *(1 for _ in back)]).items() if n > ids}
    points, back = ringed
    again_merged = _merged_with_credits(items, releases, points, periods, back, ids, on_rings)
    if again_merged is not None:
        points, releases, back = again_merged
    return points, back, True, releases


def _gathered_flags(releases: Sequence[flag_sets.Release], points: list[int],
                    periods: list[int]) -> list[flag_sets.Release]:
    """`releases` as the flags they become once insert-sync gathers the sets of a short
    pair (`_merge_at_points`: one flag per point, pipe pair, distance and ids): carried
    releases of both directions at one point on as many ids are one flag, waited before
    the earliest consumer, so each is counted as that flag (set at the point, waited at
    that consumer: `flag_sets.flag_key` then gives them one key). Three_ids seed 857: the
    MTE2 -> V flags carried from the last load to a vector op before it and one after it,
    two ids each, were one in the code and two in the replay, whose pair then looked
    short, its V -> MTE3 ring unmodelled and its credits (each a vector op waiting for a
    store) left out: written 1023, ran 1202."""
    groups: dict[tuple, list[int]] = {}
    for k, (r, point) in enumerate(zip(releases, points, strict=True)):
        if r.distance:
            groups.setdefault((point, r.set_pipe, r.wait_pipe, r.distance, periods[k]), []).append(k)
    out = list(releases)
    for (point, *_), ks in groups.items():
        if len({releases[k].src < releases[k].dst for k in ks}) > 1:
            first = min(releases[k].dst for k in ks)
            for k in ks:
                out[k] = replace(releases[k], src=point, dst=first)
    return out


def _rings_or_within(releases: Sequence[flag_sets.Release], points: list[int],
                     again_for: Callable[[list[flag_sets.Release]], Again] | None,
                     ) -> tuple[list[flag_sets.Release], dict[int, int]]:
    """The releases and, per carried flag set before its wait in the pass, its ring, as
    insert-sync's `_rings_or_within` gives them: the fewest ids from distance + 1 (up to
    `RING_EXTRA_IDS` more) on which its next set of an id follows the wait that consumed
    the previous one, else waited in its own pass (distance 0). Narrow seed 71 on the 950
    (U = 2): a store's flag to the load two items after it, carried one pass, was not
    ordered on two ids; insert-sync waited it in its own pass, each pass's last load then
    waiting for its stores (written 390 a pass, ran 572), where the replay counted a ring
    of two. Three ids order it. One question per flag (`flag_sets.flag_key`: insert-sync
    has merged the releases of one point, pair and distance, waited before the first
    consumer), its answer for all its releases."""
    if again_for is None:
        return list(releases), {}
    flags: dict[tuple, list[int]] = {}
    for k, r in enumerate(releases):
        if r.distance and flag_sets.flag_ids(r.distance, r.src < r.dst) > r.distance:
            flags.setdefault(flag_sets.flag_key(r, points[k]), []).append(k)
    asked = {ks[0]: ks for key, ks in flags.items() if key[0] < min(releases[k].dst for k in ks)}
    first = _carried_rings(points, list(asked), releases, again_for(list(releases)), RING_EXTRA_IDS)
    rings = {k: first[head] for head, ks in asked.items() if head in first for k in ks}
    within = {k for head, ks in asked.items() if head not in first for k in ks}
    return [replace(r, distance=0) if k in within else r for k, r in enumerate(releases)], rings


def _no_double_set(releases: Sequence[flag_sets.Release], points: list[int], again: Again | None,
                   runs: int | None = None, rings: dict[int, int] | None = None,
                   ) -> tuple[list[int], list[flag_sets.Release]]:
    """Per release, the ids its flag takes, and the credit flags back, as insert-sync's
    `_no_double_set` gives them: a flag whose next set nothing orders after its wait
    takes a ring of one id per version (two) up to `RING_EXTRA_IDS` more where that
    orders it (`_within_rings`), else a flag back (wait pipe -> set pipe) from its
    consumer to its set point. Without it the replay counted one id
    for each of three V -> MTE3 flags that insert-sync gave two (unseen seed 22 on a chip
    of 4 ids: insert-sync ran short, put the flags on a ring behind a credit flag back,
    the replay did not, and the loop ran 664 cycles an iteration where 551 was written;
    652 written and 646 run with it). `rings`: the ids `_rings_or_within` gave carried
    flags."""
    rings = rings or {}
    periods = [rings.get(k, flag_sets.flag_ids(r.distance, r.src < r.dst)) for k, r in enumerate(releases)]
    back: list[flag_sets.Release] = []
    if again is None:
        return periods, back
    versions = max([2, *periods])
    # a flag (`flag_sets.flag_key`, the direction included as insert-sync and `ids_needed`
    # have it: four_ids seed 602, whose one-id MTE2 -> V flag counted the two of the other
    # at its point, ran the pair short in the replay only, and the credit flag insert-sync
    # gave a V -> MTE3 flag was left out: written 752, ran 1055): its first release
    first: dict[tuple, int] = {}
    consumer: dict[tuple, int] = {}  # and the item before which it is waited
    for k, (r, point) in enumerate(zip(releases, points, strict=True)):
        key = flag_sets.flag_key(r, point)
        first.setdefault(key, k)
        consumer[key] = min(consumer.get(key, r.dst), r.dst)
    # a body that runs no more times than the flag has ids sets each id once (insert-sync
    # leaves it so: unseen seed 25, one trip, ran 420 cycles as it was and 508 written
    # with a credit flag back)
    asked = [k for k in first.values()
             if not (releases[k].distance == 0 and runs is not None and runs <= periods[k])]
    ordered: set[int] = set()
    for period in sorted({periods[k] for k in asked}):
        ordered |= again(points, [k for k in asked if periods[k] == period], period, False)
    unordered = [k for k in asked if k not in ordered]
    within = [k for k in unordered if releases[k].distance == 0]
    ringed = _within_rings(points, within, versions, again, runs)
    carried, around = _carried_periods(releases, points, [consumer[flag_sets.flag_key(r, p)] for r, p in zip(releases, points, strict=True)],
                                       periods, ordered, unordered, again, runs)
    ringed.update(carried)
    period_of: dict[tuple, int] = {}
    for key, k in first.items():
        r = releases[k]
        period_of[key] = ringed.get(k, periods[k])
        if k in unordered and k not in ringed and consumer[key] != key[0]:
            back.append(flag_sets.Release(consumer[key], key[0], r.wait_pipe, r.set_pipe, 1 if r.distance == 0 else 0))
        elif k in around:
            back.append(flag_sets.Release(consumer[key], key[0], r.wait_pipe, r.set_pipe, 0))
    return [period_of[flag_sets.flag_key(r, point)] for r, point in zip(releases, points, strict=True)], back


# a set of the replay's code: (point, set pipe, wait pipe, distance, direction)
SetKey = tuple[int, str, str, int, bool]


def set_key(r: flag_sets.Release, point: int) -> SetKey:
    """The set of the replay's code that release `r` set after item `point` is waited by:
    insert-sync's flag (`flag_sets.flag_key`), one per point, pipe pair, distance and
    direction. Insert-sync merges the flags of one point, pair, distance and ids
    (`_merge_at_points`), and a carried flag waited after its point takes one id more
    than one waited before it (`flag_sets.flag_ids`): the two are two set_flags, each
    waited before its own first consumer. Unseen seed 1297 on the 910B: one MTE3 -> MTE2
    set carried to a load before the last store's point and one to a load after it
    were one set in the replay, waited before the first load only; the second load went
    on the HBM port before a store it waits behind in the code, the stores slipped
    behind the next pass's loads, and the II 297 code was replayed at 388 cycles a
    pass where it ran at 295."""
    return flag_sets.flag_key(r, point)


def _carried_periods(releases: Sequence[flag_sets.Release], points: list[int], consumers: list[int],
                     periods: list[int], ordered: set[int], unordered: list[int], again: Again,
                     runs: int | None) -> tuple[dict[int, int], set[int]]:
    """The carried flags' rings as insert-sync gives them (per release, its ids) and
    those that get a credit flag around instead: a carried flag that could be set again
    before its wait takes a ring (`_on_a_ring`, with the trips known: its ids count
    against the pair's); one ordered so only after the wait of the pass it was set in is
    asked again after its own wait (`_zero_trip_credits`)."""
    ringed: dict[int, int] = {}
    if runs is not None:
        carried = [k for k in unordered if 0 < releases[k].distance and periods[k] <= releases[k].distance
                   and points[k] != consumers[k]]
        ringed.update(_carried_rings(points, carried, releases, again, RING_EXTRA_IDS))
    around = _unordered_after_own_wait(releases, points, [k for k in ordered if releases[k].distance
                                                          and points[k] >= consumers[k]], periods, again)
    if runs is not None:
        ringed.update(_carried_rings(points, [k for k in around if periods[k] <= releases[k].distance],
                                     releases, again, 0))
    return ringed, {k for k in around if k not in ringed}


def _unordered_after_own_wait(releases: Sequence[flag_sets.Release], points: list[int], backward: list[int],
                              periods: list[int], again: Again) -> list[int]:
    """Of `backward` (carried flags set after their consumer whose next set is ordered
    after the wait of the pass it was set in), those whose next set of an id is not
    ordered after the wait that consumed its previous set (insert-sync's
    `_zero_trip_credits`: they take a ring of distance + 1 ids where the trips are known,
    else a credit flag around the items from the wait to the set). Unseen seed 444 on the
    910B: two V -> MTE3 flags carried to the next pass's stores took two ids each in the
    code, where the replay counted one; the pair ran short there and its flags took turns
    behind credits the replay did not have (written 395, ran 457)."""
    own: set[int] = set()
    for period in sorted({periods[k] for k in backward}):
        own |= again(points, [k for k in backward if periods[k] == period], period, True)
    return [k for k in backward if k not in own]


def _carried_rings(points: list[int], ks: list[int], releases: Sequence[flag_sets.Release], again: Again,
                   extra_ids: int) -> dict[int, int]:
    """Per carried release of `ks`, the ids of the ring insert-sync's `_on_a_ring` gives
    it: the fewest from distance + 1, up to `extra_ids` more, on which the next set of an
    id is ordered after the wait that consumed its previous set. A release left out keeps
    its ids (and gets a credit flag)."""
    ringed: dict[int, int] = {}
    for distance in sorted({releases[k].distance for k in ks}):
        left = [k for k in ks if releases[k].distance == distance]
        ringed.update(_first_ordered(points, left, ring_sizes(distance + 1, extra_ids), again, True))
    return ringed


def _within_rings(points: list[int], within: list[int], versions: int, again: Again,
                  runs: int | None) -> dict[int, int]:
    """Per release of `within` (flags waited in their own pass that nothing orders on
    their ids), the ids of the ring that orders its next set after its wait: one per
    version, up to `RING_EXTRA_IDS` more, as insert-sync's `_on_a_ring` tries them; one
    id per pass where the body runs no more times than that (none is set twice). A
    release left out gets a credit flag back."""
    if runs is not None and runs <= versions:
        return dict.fromkeys(within, versions)
    return _first_ordered(points, within, ring_sizes(versions), again, False)


def _first_ordered(points: list[int], ks: list[int], sizes: range, again: Again, own: bool) -> dict[int, int]:
    """Per release of `ks`, the first ring size of `sizes` on which `again` (`own`: after
    the wait that consumed the previous set) orders its next set of an id after its wait;
    none where no size does."""
    ringed: dict[int, int] = {}
    left = list(ks)
    for period in sizes:
        if not left:
            break
        got = again(points, left, period, own)
        ringed.update(dict.fromkeys(got, period))
        left = [k for k in left if k not in got]
    return ringed


def _short_pipes(releases: Sequence[flag_sets.Release], points: list[int], back: list[flag_sets.Release],
                 periods: list[int], ids: int) -> frozenset[str]:
    """The set pipes of the pairs whose flags, credits included, need more than `ids` ids."""
    need = flag_sets.ids_needed([*releases, *back], [*points, *(c.src for c in back)],
                                [*periods, *(1 for _ in back)])
    return frozenset(pair[0] for pair, n in need.items() if n > ids)


def _merged_carried(items: Sequence[flag_sets.Item], releases: Sequence[flag_sets.Release], points: list[int],
                    periods: list[int], back: list[flag_sets.Release], ids: int,
                    ) -> tuple[list[int], list[flag_sets.Release], list[int]]:
    """`points`, `releases` and `periods` with the carried flags of each short pair merged
    as insert-sync's `merge_short_carried` does (`_merge_flags_of`), until the pair needs
    no more than `ids` ids (four_ids seed 147: counted by their producers, a merged flag's
    releases were two flags again, the pair still short and its ring unmodelled: written
    747, ran 1148). `placed_sets` takes only the distance back to the releases."""
    need = flag_sets.ids_needed([*releases, *back], [*points, *(c.src for c in back)], [*periods, *(1 for _ in back)])
    out, synced, ids_of = list(points), list(releases), list(periods)
    for pair, n in sorted(need.items()):
        if n > ids:
            _merge_flags_of(items, pair, n - ids, out, synced, ids_of, periods)
    return out, synced, ids_of


def _merged_with_credits(items: Sequence[flag_sets.Item], releases: Sequence[flag_sets.Release], points: list[int],
                         periods: list[int], back: list[flag_sets.Release], ids: int,
                         on_rings: set[tuple[str, str]],
                         ) -> tuple[list[int], list[flag_sets.Release], list[flag_sets.Release]] | None:
    """Where the rings' credit flags (`_ringed`: wait pipe -> set pipe) leave a pair short
    again, its carried flags, the credits carried to a later pass among them, merged as
    insert-sync's `allocate` merges them after its rings (`merge_short_carried` on the
    ringed flags, `_merge_flags_of`). `on_rings`: the pairs the rings took (their flags
    take turns, not an id each). `points`, `releases` and `back` so merged; None where no
    other pair is short, or merging leaves one short (the code is then other than this).
    Three_ids seed 1645: the V -> MTE3 ring's credit from a store to the next pass's
    stage-1 vmax and the MTE3 -> V flag carried from a later store were one set in the
    code, after that later store; the replay set the credit after the first store, the
    vmax and the load its V -> MTE2 flag holds ran a store earlier (written 572 a pass,
    ran 621)."""
    def need() -> dict[tuple[str, str], int]:
        return flag_sets.ids_needed([*releases, *back], [*points, *(c.src for c in back)],
                                    [*ids_of, *(1 for _ in back)])

    ids_of = list(periods)
    short = {pair: n - ids for pair, n in need().items() if n > ids and pair not in on_rings}
    if not short:
        return None
    points, releases, back = list(points), list(releases), list(back)
    for pair, excess in sorted(short.items()):
        _merge_flags_of(items, pair, excess, points, releases, ids_of, periods, back)
    if any(n > ids for pair, n in need().items() if pair not in on_rings):
        return None
    return points, releases, back


def _merge_flags_of(items: Sequence[flag_sets.Item], pair: tuple[str, str], excess: int, points: list[int],
                    releases: list[flag_sets.Release], ids_of: list[int], periods: list[int],
                    back: list[flag_sets.Release] | None = None) -> None:
    """Merge the carried flags of `pair` (`event_ids.merge_carried`) until it needs `excess`
    fewer ids, in place: a merged flag is set at its latest point, waited before its first
    consumer, over its shortest distance, and each of its releases (and, with `back`, its
    credits carried to a later pass) becomes that flag, so that it is counted as that one
    flag (`flag_sets.flag_key`) and not by its producer. A flag is keyed by its point,
    distance and direction; one of releases alone takes its first release's ids, one with
    credits the most of its members' (a credit's one)."""
    credits = back if back is not None else []
    flags: dict[tuple, list[int]] = {}  # per carried flag: its releases (k) and credits (~j)
    for k, (r, point) in enumerate(zip(releases, points, strict=True)):
        if (r.set_pipe, r.wait_pipe) == pair and r.distance > 0:
            flags.setdefault((point, r.distance, r.src < r.dst), []).append(k)
    for j, c in enumerate(credits):
        if (c.set_pipe, c.wait_pipe) == pair and c.distance > 0:
            flags.setdefault((c.src, c.distance, c.src < c.dst), []).append(~j)

    def member(k: int) -> flag_sets.Release:
        return releases[k] if k >= 0 else credits[~k]

    def period(ks: list[int]) -> int:
        return max(periods[k] if k >= 0 else 1 for k in ks) if back is not None else periods[ks[0]]

    members = list(flags.values())
    carried = [Carried(point, min(member(k).dst for k in ks), distance, period(ks), items[point].start)
               for (point, distance, _), ks in flags.items()]
    for group in merge_carried(carried, excess):
        merged = reduce(Carried.merged_with, (carried[i] for i in group))
        for k in (k for i in group for k in members[i]):
            moved = replace(member(k), src=merged.src, dst=merged.dst, distance=merged.distance)
            if k >= 0:
                points[k], ids_of[k], releases[k] = merged.src, merged.ids, moved
            else:
                credits[~k] = moved


def _ringed(length: int, releases: Sequence[flag_sets.Release], points: list[int], ids: int,
            ordered: Ordered, periods: list[int], back: list[flag_sets.Release],
            ) -> tuple[list[int], list[flag_sets.Release]] | None:
    """`points` with every short pair's same-pass flags on a ring (one id each), and the
    credits: `back` (`_no_double_set`'s) and those that order the ring's reuses; `points`
    itself where no pair is short, and None when one does not fit (insert-sync's
    barriers, which the replay does not model)."""
    need = flag_sets.ids_needed([*releases, *back], [*points, *(c.src for c in back)], [*periods, *(1 for _ in back)])
    ring_ids_of = {(point, r.set_pipe, r.wait_pipe): period
                   for r, point, period in zip(releases, points, periods, strict=True) if r.distance == 0}
    out, back = list(points), list(back)
    for pair, n in sorted(need.items()):
        if n <= ids:
            continue
        at: dict[int, list[int]] = {}  # set point -> its releases of the pair within the pass
        for k, (r, point) in enumerate(zip(releases, points, strict=True)):
            if (r.set_pipe, r.wait_pipe) == pair and r.distance == 0:
                at.setdefault(point, []).append(k)
        ring = sorted(at)
        lifetimes = [Lifetime(point, min(releases[k].dst for k in at[point])) for point in ring]
        free = ids - (n - sum(ring_ids_of[(point, *pair)] for point in ring))
        found = ring_ids(lifetimes, free) if free > 0 else None
        if not found:
            return None
        groups, ids_of = found
        kept = []
        for group in groups:  # a merged flag: set after its latest producer, waited before its first consumer
            merged = Lifetime(max(lifetimes[i].src for i in group), min(lifetimes[i].dst for i in group))
            for i in group:
                for k in at[ring[i]]:
                    out[k] = merged.src
            kept.append(merged)
        needs = [(kept[a].dst, kept[b].src, wrap) for a, b, wrap in ring_edges(ids_of)
                 if not ordered(out, kept[a].dst, kept[b].src, pair[1], pair[0], wrap)]
        back += [flag_sets.Release(x, y, pair[1], pair[0], distance) for x, y, distance in credits(needs, length)]
    return out, back


def planned_order(releases: list[flag_sets.Release], points: list[int]) -> dict[SetKey, tuple]:
    """Per set key, where insert-sync plans its flag among the others (`_plan_block` sorts
    its requests by distance, consumer, latest producer, pipes): its waits before one op
    stand in that order, each inserted before the op after those planned earlier."""
    planned: dict[SetKey, tuple] = {}
    for r, point in zip(releases, points, strict=True):
        key = set_key(r, point)
        rank = (r.distance, r.dst, -r.src, r.set_pipe, r.wait_pipe)
        planned[key] = min(planned.get(key, rank), rank)
    return planned


def set_order(planned: dict[SetKey, tuple]) -> dict[int, list[SetKey]]:
    """Per point, its sets (`set_key`s) in the order insert-sync emits them: one per pipe
    pair, distance and direction, each inserted right after the point in
    the order the flags were planned (`planned`: `planned_order`'s), so the last planned
    comes first; a loop-carried set after the point's sets within the pass (`_insert_set`)."""
    ordered = sorted(sorted(planned, key=lambda k: planned[k], reverse=True), key=lambda k: k[3] > 0)
    at: dict[int, list[SetKey]] = {}
    for key in ordered:
        at.setdefault(key[0], []).append(key)
    return at


def waited_sets(producers: dict[int, list[tuple[int, int, int]]], set_of: dict[SetKey, int],
                 planned: dict[SetKey, tuple], items: int) -> list[list[int]]:
    """Per item (of `items`), the sets whose wait_flag stands before it (one wait_flag per
    set, before its first consumer), in the order insert-sync plans them (`planned_order`)."""
    key_of = {k: key for key, k in set_of.items()}
    waited: list[list[int]] = [[] for _ in range(items)]
    for s, consumers in producers.items():
        waited[min(dst for _, dst, _ in consumers)].append(s)
    for sets in waited:
        sets.sort(key=lambda s: planned[key_of[s]])
    return waited


def _flag_keys(releases: list[flag_sets.Release], points: list[int]) -> dict[tuple, int]:
    """The flags of `releases` at `points`: their `set_key` -> the item before which it is
    waited (its first consumer)."""
    first: dict[tuple, int] = {}
    for r, point in zip(releases, points, strict=True):
        key = set_key(r, point)
        first[key] = min(first.get(key, r.dst), r.dst)
    return first


def _flag_of(ev: sync_plan.Event) -> int | None:
    """The flag (its index in `flag_model`'s sorted keys) an event of that model sets or waits."""
    return ev[3][0] if isinstance(ev[3], tuple) else None


def flag_model(block: sync_plan.BlockModel, releases: list[flag_sets.Release], points: list[int]) -> sync_plan.BlockModel:
    """The block's model (`block`: its items' pipes) with one flag per `set_key` (point,
    pipe pair, distance and direction): set after the point, waited before its first
    consumer, on the ids insert-sync gives it (`flag_sets.flag_ids`: one more where a producer comes first)."""
    model = sync_plan.BlockModel(block.pipes)
    for f, ((point, a, b, k, forward), dst) in enumerate(sorted(_flag_keys(releases, points).items())):
        m = flag_sets.flag_ids(k, forward)
        model.after.setdefault(point, []).append(lambda copy, f=f, m=m, a=a, b=b: ("set", a, b, (f, copy % m)))
        model.before.setdefault(dst, []).append(lambda copy, f=f, m=m, a=a, b=b, k=k: ("wait", a, b, (f, (copy - k) % m)))
    return model


def again_of(block: sync_plan.BlockModel, releases: list[flag_sets.Release]) -> Again:
    """`Again` on the block's model with the flags of `releases` (one run of
    the block per question, for all the flags asked)."""
    def again(at: list[int], ks: list[int], period: int, own: bool) -> set[int]:
        if not ks:
            return set()
        index = {key: f for f, key in enumerate(sorted(_flag_keys(releases, at)))}
        flag_of = {index[set_key(releases[k], at[k])]: k for k in ks}
        distances = {f: releases[k].distance for f, k in flag_of.items()} if own else None
        return {flag_of[f] for f in sync_plan.sets_after_waits(flag_model(block, releases, at), _flag_of,
                                                                set(flag_of), period, distances)}
    return again
