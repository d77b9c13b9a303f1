"""Event-id allocation (IR-free): disjoint ids for overlapping lifetimes of one pipe
pair, reuse once a lifetime ended, consecutive ids for per-version flags, None when the
8 ids of a pair run out."""

from ascend_mlir.analysis.event_ids import EventRequest, allocate_events


def test_reuse_and_pairs():
    mte2_v = ("MTE2", "V")
    reqs = [
        EventRequest(mte2_v, 0, 10),
        EventRequest(mte2_v, 5, 12),  # overlaps the first: another id
        EventRequest(mte2_v, 11, 20),  # the first ended: its id again
        EventRequest(("V", "MTE3"), 0, 20),  # another pair: its own ids
    ]
    assert allocate_events(reqs) == [0, 1, 0, 0]


def test_versions_take_consecutive_ids():
    pair = ("V", "MTE2")
    reqs = [EventRequest(pair, 0, 9), EventRequest(pair, 0, 9, width=2), EventRequest(pair, 0, 9, width=3)]
    firsts = allocate_events(reqs)
    taken = [set(range(f, f + r.width)) for f, r in zip(firsts, reqs, strict=True) if f is not None]
    assert sum(len(t) for t in taken) == len(set().union(*taken)) == 6


def test_running_out_and_reserved():
    pair = ("MTE2", "V")
    reqs = [EventRequest(pair, 0, 5) for _ in range(9)]
    ids = allocate_events(reqs)
    assert sorted(i for i in ids if i is not None) == list(range(8))
    assert ids.count(None) == 1
    assert allocate_events([EventRequest(pair, 0, 1)], reserved={pair: {0, 1}}) == [2]


def test_prefer_unused_takes_fresh_ids_then_the_one_free_for_longest():
    """Cross-core flags: every reuse costs a barrier, so fresh ids come first; once all
    are used, the id free for longest."""
    pair = ("CUBE", "VECTOR")
    seq = [EventRequest(pair, 10 * k, 10 * k + 5) for k in range(5)]  # one at a time
    assert allocate_events(seq) == [0, 0, 0, 0, 0]
    assert allocate_events(seq, prefer_unused=True) == [0, 1, 2, 3, 4]
    assert allocate_events(seq, 3, prefer_unused=True) == [0, 1, 2, 0, 1]
    # ids 0 and 1 both free at 40, 1 freed later than 0: 0 is taken
    late = [EventRequest(pair, 0, 5), EventRequest(pair, 0, 30), EventRequest(pair, 40, 50)]
    assert allocate_events(late, 2, prefer_unused=True) == [0, 1, 0]
    # still never two live at once on one id, and None when a direction's ids run out
    live = [EventRequest(pair, 0, 9) for _ in range(3)]
    assert allocate_events(live, 2, prefer_unused=True) == [0, 1, None]


def test_requests_that_take_turns_share_an_id():
    """Flags of one loop body whose lifetimes overlap (the whole loop) but which the
    caller proved to take turns share ids: nine of them fit in two ids."""
    pair = ("MTE2", "V")
    reqs = [EventRequest(pair, 0, 50) for _ in range(9)]
    assert allocate_events(reqs).count(None) == 1
    # even and odd requests take turns among themselves
    ids = allocate_events(reqs, shares=lambda i, j: i % 2 == j % 2)
    assert ids == [0, 1, 0, 1, 0, 1, 0, 1, 0]
