"""The primes and drains of a loop-carried flag's event ids (`sync_blocks.ring_versions`),
checked against a replay of the ids themselves: pass k sets version k mod period and
waits version (k - distance) mod period. Every wait must find its id set (by a prime or
an earlier pass), no id may be set twice before its wait, and the drains must wait
exactly the ids still set after the last pass, for every trip count including 0."""

import pytest

from ascend_mlir.transforms.sync_blocks import primed_versions, ring_versions


def _replay(distance: int, period: int, trips: int) -> list[int]:
    """The versions still set after `trips` passes, in the order they were set; fails on
    a wait of an unset id or a second set of a set one."""
    primes, _ = ring_versions(distance, period, trips)
    pending: list[int] = list(primes)
    assert len(set(pending)) == len(pending), "an id primed twice"
    for k in range(trips):
        waited, setting = (k - distance) % period, k % period
        if setting == waited and distance % period == 0:
            # the consumer's wait comes first in the pass (distance = period): it frees the id
            pending.remove(waited)
            pending.append(setting)
            continue
        assert setting not in pending, f"pass {k} sets version {setting} before its wait"
        pending.append(setting)
        assert waited in pending, f"pass {k} waits version {waited}, which nothing set"
        pending.remove(waited)
    return pending


@pytest.mark.parametrize("distance", [1, 2, 3])
@pytest.mark.parametrize("trips", range(0, 13))
def test_a_ring_of_one_id_more_than_the_distance_drains_what_is_left(distance, trips):
    period = distance + 1
    _, drains = ring_versions(distance, period, trips)
    assert sorted(drains) == sorted(_replay(distance, period, trips))
    assert len(primed_versions(distance, period)) == distance


@pytest.mark.parametrize("distance", [1, 2, 3, 4])
def test_one_id_per_version_primes_and_drains_every_id(distance):
    # the consumer's wait comes first in the pass: every id primed, every id drained,
    # whatever the trip count (the drains need no trip count then)
    assert ring_versions(distance, distance, None) == (list(range(distance)), list(range(distance)))
    for trips in range(0, 9):
        assert sorted(_replay(distance, distance, trips)) == list(range(distance))


def test_a_ring_needs_the_trip_count():
    with pytest.raises(AssertionError):
        ring_versions(1, 2, None)
