"""Where set_flags go (`analysis.flag_sets`, IR-free): sets of one producer pipe gather
at the fewest points the schedule allows, never delaying a consumer past its slot."""

from ascend_mlir.analysis.flag_sets import Item, Release, drains, latest_point, set_points

LOAD, VEC = frozenset({"MTE2"}), frozenset({"V"})


def _loads_then_adds(gap: int) -> list[Item]:
    """Two loads (ii 10, latency 100) then two adds starting `gap` cycles after the
    second load's start."""
    return [
        Item(LOAD, 0, 100, 10),
        Item(LOAD, 10, 100, 10),
        Item(VEC, 10 + gap, 5, 5),
        Item(VEC, 15 + gap, 5, 5),
    ]


def test_sets_of_one_pipe_gather_when_the_consumers_wait_anyway():
    items = _loads_then_adds(gap=100)  # each add starts after both loads completed
    rel = [Release(0, 2, "MTE2", "V"), Release(1, 3, "MTE2", "V")]
    assert set_points(items, rel, ii=200) == [1, 1]
    assert drains(items, rel, ii=200) == {"MTE2": [90]}


def test_a_set_never_moves_past_its_consumers_slot():
    # the first add is scheduled right when the first load completes (100): waiting for
    # the second load (110) would delay it, so the sets stay apart: two drains
    items = [Item(LOAD, 0, 100, 10), Item(LOAD, 10, 100, 10), Item(VEC, 100, 5, 5), Item(VEC, 110, 5, 5)]
    rel = [Release(0, 2, "MTE2", "V"), Release(1, 3, "MTE2", "V")]
    assert latest_point(items, rel[0], ii=200) == 0
    assert set_points(items, rel, ii=200) == [0, 1]
    assert drains(items, rel, ii=200) == {"MTE2": [90, 90]}


def test_unscheduled_sets_stay_after_their_producer():
    items = [Item(LOAD), Item(LOAD), Item(VEC), Item(VEC)]
    rel = [Release(0, 2, "MTE2", "V"), Release(1, 3, "MTE2", "V")]
    assert set_points(items, rel) == [0, 1]


def test_a_set_in_the_same_pass_stays_before_its_consumer():
    items = _loads_then_adds(gap=100) + [Item(LOAD, 30, 100, 10)]
    # the third load comes after the first add: its set may not stand before that add
    rel = [Release(0, 2, "MTE2", "V"), Release(4, 3, "MTE2", "V", distance=1)]
    points = set_points(items, rel, ii=400)
    assert points[0] < 2 and points[1] == 4


def test_loop_carried_releases_gather_at_the_end_of_the_body():
    # buffers freed by two vector ops for the next iteration's loads: one point
    items = [Item(LOAD, 0, 100, 10), Item(VEC, 100, 5, 5), Item(VEC, 105, 5, 5)]
    rel = [Release(1, 0, "V", "MTE2", distance=1), Release(2, 0, "V", "MTE2", distance=1)]
    assert set_points(items, rel, ii=200) == [2, 2]
