"""Where a loop body's sets stand once its pipe pairs run short of event ids, IR-free:
what `ascend-insert-sync` does then (`_Emitter.allocate`), for the replay of the code
(`realize.py`), with the same rules (`analysis.flag_sets`, `analysis.event_ids`).

A loop body whose flags of one pipe pair need more ids than the chip has
(`flag_sets.short_set_pipes`) has its set pipe's sets gathered at the fewest points
(`flag_sets.set_points(..., fewest)`): a consumer then waits for a set after the ops of
other chains (chains16x8, 16 loads and 16 stores a pass on 8 ids: its stores wait for a
set after the vector ops of half the chains; replayed without this at 3999 cycles an
iteration, run at 3612, with it 3679). Where a pair is still short, its flags of one
pass take turns on the ids it has free (`event_ids.ring_ids`, merged where more are
live at once than there are ids) and a credit flag back (wait pipe -> set pipe,
`event_ids.credits`) orders each reuse that nothing orders yet: a store lets the vector
op of a chain eight flags on go on. Whether something orders a reuse is asked of the
replay's own model of the block's flags at their points (`ordered`: an item completes
before another of the same or the next pass), where insert-sync asks whether a wait
happens before a set: the replay may add a credit insert-sync does not. Where the ring does not fit
either, insert-sync puts a pipe_barrier[<PIPE_ALL>] in (not modelled: the sets stay as
gathered).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ascend_mlir.analysis import flag_sets
from ascend_mlir.analysis.event_ids import Lifetime, credits, ring_edges, ring_ids

# ordered(points, a, b, pipe_a, pipe_b, wrap): with the sets at `points`, item a (its
# pipe_a part) completes before item b of the same pass (wrap 0) or the next (wrap 1)
# starts on pipe_b
Ordered = Callable[[list[int], int, int, str, str, int], bool]


def placed_sets(items: Sequence[flag_sets.Item], releases: Sequence[flag_sets.Release], ii: int | None,
                ids: int, ordered: Ordered) -> tuple[list[int], list[flag_sets.Release], bool]:
    """The item after which each release's set stands (`flag_sets.set_points`; `ii` None:
    a loop kept in program order, each set after its producer) and the credit flags the
    body gets, as insert-sync places them on `ids` event ids per pipe pair (module doc),
    and whether that is all (False: insert-sync puts barriers in, which is not modelled)."""
    points = flag_sets.set_points(items, releases, ii)
    fewest = flag_sets.short_set_pipes(releases, points, ids)
    if not fewest:
        return points, [], True
    points = flag_sets.set_points(items, releases, ii, fewest)
    ringed = _ringed(releases, points, ids, len(items), ordered)
    return (*ringed, True) if ringed is not None else (points, [], False)


def _ringed(releases: Sequence[flag_sets.Release], points: list[int], ids: int, length: int,
            ordered: Ordered) -> tuple[list[int], list[flag_sets.Release]] | None:
    """`points` with every short pair's same-pass flags on a ring, and the credits that
    order their reuses; `points` itself, without credits, where no pair is short, and None
    when one does not fit (insert-sync's barriers, which the replay does not model)."""
    need = flag_sets.ids_needed(releases, points)
    out, back = list(points), []
    for pair, n in sorted(need.items()):
        if n <= ids:
            continue
        at: dict[int, list[int]] = {}  # set point -> its releases of the pair within the pass
        for k, (r, point) in enumerate(zip(releases, points, strict=True)):
            if (r.set_pipe, r.wait_pipe) == pair and r.distance == 0:
                at.setdefault(point, []).append(k)
        ring = sorted(at)
        lifetimes = [Lifetime(point, min(releases[k].dst for k in at[point])) for point in ring]
        free = ids - (n - len(ring))
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
