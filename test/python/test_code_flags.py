"""Where a loop body's sets stand once its pipe pairs run short of event ids
(`scheduling.code_flags`, IR-free; `analysis.flag_sets.ids_needed` / `short_set_pipes`):
what ascend-insert-sync does then, for the replay of the code (the chain kernels against
the simulator are in test_scheduled_ii.py)."""

from __future__ import annotations

from ascend_mlir.analysis.flag_sets import Item, Release, flag_ids, ids_needed, set_points, short_set_pipes
from ascend_mlir.scheduling.code_flags import placed_sets

LOAD, VEC, STORE = frozenset({"MTE2"}), frozenset({"V"}), frozenset({"MTE3"})


def _never(points, a, b, pipe_a, pipe_b, wrap) -> bool:
    return False


def _always(points, a, b, pipe_a, pipe_b, wrap) -> bool:
    return True


def _loads_first(chains: int) -> tuple[list[Item], list[Release]]:
    """All loads, then one vector op per chain, then all stores (program order, untimed)."""
    items = [Item(LOAD)] * chains + [Item(VEC)] * chains + [Item(STORE)] * chains
    releases = [Release(c, chains + c, "MTE2", "V") for c in range(chains)]
    releases += [Release(chains + c, 2 * chains + c, "V", "MTE3") for c in range(chains)]
    return items, releases


def _interleaved(chains: int) -> tuple[list[Item], list[Release]]:
    """Load, vector op, store of one chain after the other (program order, untimed), and
    each store before the next pass's load of its chain."""
    items = [item for _ in range(chains) for item in (Item(LOAD), Item(VEC), Item(STORE))]
    releases = [Release(3 * c, 3 * c + 1, "MTE2", "V") for c in range(chains)]
    releases += [Release(3 * c + 1, 3 * c + 2, "V", "MTE3") for c in range(chains)]
    releases += [Release(3 * c + 2, 3 * c, "MTE3", "MTE2", 1) for c in range(chains)]
    return items, releases


def test_a_flag_takes_an_id_per_pass_it_is_carried_and_one_more_on_a_ring():
    assert [flag_ids(0, True), flag_ids(1, False), flag_ids(2, False), flag_ids(2, True)] == [1, 1, 2, 3]
    items, releases = _interleaved(3)
    assert ids_needed(releases, [r.src for r in releases]) == {("MTE2", "V"): 3, ("V", "MTE3"): 3, ("MTE3", "MTE2"): 3}


def test_sets_stay_after_their_producers_while_the_ids_last():
    items, releases = _loads_first(8)
    points, back, modelled, _ = placed_sets(items, releases, None, 8, _never)
    assert modelled
    assert points == [r.src for r in releases] and back == []
    assert short_set_pipes(releases, points, 8) == frozenset()


def test_short_pipes_gather_their_sets_at_the_fewest_points():
    """Ten loads a pass on eight ids: every load's set moves after the last load (the
    consumers come after it anyway), every vector op's after the last vector op."""
    items, releases = _loads_first(10)
    assert short_set_pipes(releases, [r.src for r in releases], 8) == {"MTE2", "V"}
    points, back, modelled, _ = placed_sets(items, releases, None, 8, _never)
    assert modelled
    assert points == [9] * 10 + [19] * 10
    assert back == []


def test_a_pair_still_short_takes_turns_with_credits_back():
    """Interleaved chains cannot gather (each consumer follows its producer): ten flags of
    a pair on eight ids take turns, and each reuse of an id nothing orders gets a credit
    (a flag from the consumer's pipe back to the producer's) from the earlier flag's
    consumer to the later flag's producer."""
    items, releases = _interleaved(10)
    points, back, modelled, _ = placed_sets(items, releases, None, 8, _never)
    assert modelled
    assert points[:20] == [r.src for r in releases[:20]]  # same-pass flags keep their points
    assert back, "a reuse nothing orders needs a credit"
    assert {(c.set_pipe, c.wait_pipe) for c in back} <= {("V", "MTE2"), ("MTE3", "V")}
    for c in back:  # set after a consumer of the pair, waited before a producer of it
        assert items[c.src].pipes == {c.set_pipe} and items[c.dst].pipes == {c.wait_pipe}
    # nothing to add where every reuse is already ordered
    assert placed_sets(items, releases, None, 8, _always)[1] == []


def test_a_ring_that_cannot_fit_leaves_the_gathered_sets():
    """A carried flag over two passes takes two ids, more than the pair has: no ring
    fits, insert-sync's barriers are not modelled, the sets stay as gathered."""
    items, releases = _interleaved(10)
    releases = [Release(r.src, r.dst, r.set_pipe, r.wait_pipe, 2 if r.distance else 0) for r in releases]
    points, back, modelled, _ = placed_sets(items, releases, None, 1, _never)
    assert not modelled
    assert back == []
    assert points[20:] == [29] * 10  # the stores' sets gathered after the last store


def test_carried_flags_short_of_ids_merge_over_the_shorter_distance():
    """A store read again two passes on by one load and three by another (the MTE3 -> MTE2
    pair needs 2 + 3 ids of 4): as insert-sync's merge_short_carried, one flag over two
    passes, waited before the earlier load, and the releases synced at that distance."""
    items = [Item(LOAD), Item(LOAD), Item(VEC), Item(STORE)]
    releases = [Release(0, 2, "MTE2", "V"), Release(1, 2, "MTE2", "V"), Release(2, 3, "V", "MTE3"),
                Release(3, 0, "MTE3", "MTE2", 2), Release(3, 1, "MTE3", "MTE2", 3)]
    points, back, modelled, synced = placed_sets(items, releases, None, 4, _always)
    assert modelled
    assert points[3:] == [3, 3]
    assert [r.distance for r in synced] == [0, 0, 0, 2, 2]
    assert ids_needed(synced, points)[("MTE3", "MTE2")] == 2
    # with the ids for both, nothing merges
    assert [r.distance for r in placed_sets(items, releases, None, 5, _always)[3]] == [0, 0, 0, 2, 3]


def test_carried_flags_of_one_point_and_distance_keep_their_own_ids_by_direction():
    """Two MTE2 -> V flags carried one pass, set after the same load: one waited after
    its point in the next pass (forward: two ids, so the next set of an id follows its
    wait), one waited before it (one id). Insert-sync keeps them apart and
    `flag_sets.ids_needed` counts them so; `_no_double_set` gave the second the ids of
    the first (its flags were keyed without the direction), ran the pair short of 4 ids
    in the replay only, and left out the credit flag insert-sync gave a V -> MTE3 flag
    (four_ids seed 602: written 752, ran 1055)."""
    from ascend_mlir.scheduling.code_flags import _no_double_set

    releases = [Release(1, 3, "MTE2", "V", 1), Release(2, 0, "MTE2", "V", 1)]
    points = [2, 2]
    periods, back = _no_double_set(releases, points, lambda at, ks, period, own: set(ks), None)
    assert periods == [flag_ids(1, True), flag_ids(1, False)] == [2, 1] and back == []
    assert ids_needed(releases, points, periods) == ids_needed(releases, points) == {("MTE2", "V"): 3}


def test_carried_flags_of_both_directions_on_as_many_ids_are_counted_as_one_once_gathered():
    """A short pair's sets gathered, insert-sync merges the flags of one point, pair,
    distance and ids (`_merge_at_points`): two MTE2 -> V flags carried one pass from the
    same load, one waited before it (two ids once `_no_double_set` rings it) and one
    after (two ids: forward), are one flag on two ids, waited before the earlier
    consumer. Counted apart, the pair needed 5 ids of 3, its ring did not fit, and the
    replay left out what insert-sync then did (three_ids seed 857: a V -> MTE3 ring
    behind credits, each a vector op waiting for a store; written 1023, ran 1202)."""
    items = [Item(VEC), Item(LOAD), Item(LOAD), Item(VEC), Item(VEC)]
    releases = [Release(1, 3, "MTE2", "V"), Release(2, 0, "MTE2", "V", 1), Release(2, 4, "MTE2", "V", 1)]

    def again(points, ks, period, own):  # a carried flag's next set follows its wait on two ids
        return {k for k in ks if releases[k].distance == 0 or period >= 2}

    points, back, modelled, synced = placed_sets(items, releases, None, 3, _always, lambda _: again, 16)
    assert modelled, "one flag on 2 ids and one on 1 fit the pair's 3"
    assert points == [2, 2, 2] and back == []
    assert [r.distance for r in synced] == [0, 1, 1]



def test_carried_flags_merged_short_of_ids_are_counted_as_the_one_flag_they_become():
    """Two MTE3 -> V flags set after the last store (a store read again two passes on, one
    read the next pass): 4 ids of 3, so they merge into one flag over one pass (as
    insert-sync's merge_short_carried: set at the point, waited before the consumer).
    The replay counted the merged releases by their producer's side of the consumer
    (the first store's release looked forward), two flags again, the pair still short and
    its ring unmodelled (four_ids seed 147: written 747, ran 1148; now 1149 and 1148)."""
    items = [Item(STORE), Item(STORE), Item(VEC), Item(STORE)]
    releases = [Release(3, 2, "MTE3", "V", 2), Release(0, 2, "MTE3", "V", 1)]

    def again(points, ks, period, own):
        return {k for k in ks if period >= 2}

    points, back, modelled, synced = placed_sets(items, releases, None, 3, _always, lambda _: again, 16)
    assert modelled, "one merged flag fits 3 ids"
    assert points == [3, 3] and back == []
    assert [r.distance for r in synced] == [1, 1]


def test_a_carried_flag_set_before_its_wait_takes_the_ring_that_orders_it_else_its_own_pass():
    """A store read again by a load later in the next pass (carried one pass, set before
    its wait): insert-sync's `_rings_or_within` gives it the fewest ids from two on which
    its next set of an id follows the wait that consumed the previous one, else waits it
    in its own pass. The replay gave it two ids whether or not that ordered it; narrow
    seed 71 on the 950 (two ids not enough) ran its loads behind the pass's own stores,
    written 390 a pass, ran 572. Three ids: run 392."""
    items = [Item(LOAD), Item(VEC), Item(STORE), Item(LOAD)]
    releases = [Release(0, 1, "MTE2", "V"), Release(1, 2, "V", "MTE3"), Release(2, 3, "MTE3", "MTE2", 1)]
    asked: list[tuple[int, bool]] = []

    def again_from(ordered_at: int):
        def again(points, ks, period, own):
            asked.append((period, own))
            return {k for k in ks if releases[k].distance == 0 or period >= ordered_at}
        return lambda synced: again

    _, _, _, synced = placed_sets(items, releases, None, 8, _always, again_from(3), 16)
    assert [r.distance for r in synced] == [0, 0, 1]
    assert (2, True) in asked and (3, True) in asked, "asked after its own wait, two ids then three"
    # no ring of up to RING_EXTRA_IDS more ids orders it: waited in its own pass
    _, _, _, synced = placed_sets(items, releases, None, 8, _always, again_from(9), 16)
    assert [r.distance for r in synced] == [0, 0, 0]


def test_short_sets_gather_from_where_their_flags_merged():
    """insert-sync first sets each flag at its timed point, merges the flags set at one
    point, and only then gathers a short pipe's sets at the fewest points, from those
    points. Here the loads L1 and L2 hand the next pass's vector op their data and may
    wait after L3, where the L3 -> V1 flag stands: they merge there. Gathered from their
    producers instead, the V0 flag's point (before V0) took L1's and L2's sets away from
    L3's: the replay's first MTE2 set stood after other loads than the code's (unseen
    seed 1103 on three_ids: after eleven loads where insert-sync's stood after five,
    replayed 1152 cycles a pass, ran 1003)."""
    items = [Item(LOAD, 0, 10, 5), Item(LOAD, 5, 30, 5), Item(LOAD, 10, 30, 5), Item(VEC, 25, 5, 5),
             Item(LOAD, 15, 30, 5), Item(VEC, 60, 5, 5)]
    releases = [Release(0, 3, "MTE2", "V"), Release(1, 3, "MTE2", "V", 1), Release(2, 3, "MTE2", "V", 1),
                Release(4, 5, "MTE2", "V")]
    assert set_points(items, releases, 100) == [0, 4, 4, 4]
    assert short_set_pipes(releases, [0, 4, 4, 4], 3) == {"MTE2"}
    points, _, modelled, _ = placed_sets(items, releases, 100, 3, _never)
    assert modelled
    assert points == [0, 4, 4, 4]
