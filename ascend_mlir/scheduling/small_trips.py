"""Program order for the first few counts of a loop whose trip count is known at run time.

A modulo schedule buys its steady state with a longer pass: at one to three trips the
code of a wide loop's schedule may run slower than the same body in program order
(unseen seed 659 on the 910B, 6 chains, one trip: 1369 cycles against program order's
1288). With the count known at compile time ascend-modulo-schedule weighs the two over it
(`program_order_result`). Known at run time only, the loop may get both codes:
ascend-pipeline-loops writes `scf.if (trips > K) { the pipelined loop } else { the loop
in program order }`, where K is the largest count at which program order's code replays
faster (and at every count below it) by more than `MARGIN_PERCENT`.

Where program order replays faster at every count weighed, or from 16 trips by more
than it loses at one, or faster at every count without falling behind from 16 trips on
(the same steady state, a shorter fill), it is the loop's code at every count
(`weigh_program_order`). So is program order with its hand-offs as
pipe_barrier[<PIPE_ALL>]s where that replays no slower than the loop's code would at every
count weighed (`_barrier_synced`: a loop whose code runs one op at a time).

Both codes are replayed as insert-sync writes a loop of unknown count (`realize.loop_cycles`
with `runtime`: no rings of ids). The program-order copy of the first counts is weighed
twice, with the pipelined loop's buffer versions (the two loops share the buffers, which
ascend-multi-buffer indexes per pass) and at version 0 of each (ascend-pipeline-loops
drops the copy's `iv mod V`: `SmallTrips.one_version`), and the faster is written: one
pass at a time overlaps nothing across passes, but with V versions each carried flag of
a runtime count spans V passes, more event ids than a pair may have (unseen seed 1754 on
skewed.toml, 12 chains: one trip of the copy at two versions replayed 1382 and ran 1408,
at one version 1112 and 1130), while elsewhere the versions keep a pass's buffers apart
that one version would order (narrow seed 1437 on the 910B, 2 chains of 8 stages: 1677
and 1693 at two versions, 1860 and 1875 at one). The pipelined code at fewer than S - 1
trips is its `scf.if`'s else branch, the loop in start order (`code_timing.written_cycles`).

The remainder loop of a loop unrolled U times runs at most U - 1 passes: where its
barrier-synced program order replays no slower at each of those counts, that is its code
(`remainder_barriers`).
"""

from __future__ import annotations

from dataclasses import replace

from .code_timing import barrier_synced_as_run, program_order_as_run, written_as_run_note, written_cycles
from .problem import LoopProblem, LoopResult
from .program_order import as_program_order, written_in_body_order
from .realize import loop_cycles, replays, sync_modelled

# the most trips program order is weighed at: the replays cost compile time (63 runtime-trip
# loops of unseen seeds 0-200 on the 910B, 83.0 -> 87.5 CPU s in all). Of those, seed 2
# takes program order, for all eight (with the loop's buffer versions it replays about 4%
# faster at every count up to 64); none on four_ids; seed 659 (above) for one trip
MAX_TRIPS = 8
# program order must replay faster by more than this (the replay's error on one pass is
# about 2%: seed 659 replayed 1345 and 1258, ran 1369 and 1288)
MARGIN_PERCENT = 2
# what `weigh_program_order` finds for the first counts: K, the program-order schedule, and its and the
# pipelined code's replayed cycles at K trips
Below = tuple[int, LoopResult, tuple[int, int]]
# the counts beyond MAX_TRIPS at which program order, faster at each count up to it, is
# weighed again: faster there too, it is the loop's code at every count
STEADY_TRIPS = (2 * MAX_TRIPS, 8 * MAX_TRIPS)


def weigh_program_order(problem: LoopProblem, body: int, written: LoopResult, slack_percent: int,
                        ) -> tuple[Below | None, LoopResult | None]:
    """For a loop of a count known at run time only: program order's first counts
    (`_faster_counts`: K, the program-order schedule, its and `written`'s replayed cycles
    at K trips) where its code runs 1 .. K trips faster than the code of `written`, and
    program order at every count where it is faster in the steady state too
    (`_throughout`, `_in_steady_state`): then the first counts' are moot. (None, None)
    where the replay models neither code (or program order is below the loop's bound,
    `written.mii`: `program_order_result` says why). The program-order schedule and the
    pipelined code's cycles at one trip are found once for all three questions."""
    in_order = _in_order(problem, body, written)
    if in_order is None:
        return None, None
    below, first, at, ours_once = _first_counts(problem, body, written, in_order)
    if not below:
        throughout = _in_steady_state(problem, body, written, in_order, ours_once, slack_percent)
        found = None
    else:
        throughout = _throughout(problem, body, written, in_order, slack_percent) if below == MAX_TRIPS else None
        throughout = throughout or _ahead_at_every_count(problem, body, written, in_order, slack_percent)
        found = (below, first, at)
    with_barriers = _barrier_synced(problem, body, written, first, below if throughout is None else 0,
                                    throughout, slack_percent)
    if with_barriers is not None:
        return None, with_barriers
    return found, throughout


def _in_order(problem: LoopProblem, body: int, written: LoopResult) -> LoopResult | None:
    """The loop's program-order schedule with the buffer versions of `written`, where the
    replay models its code and it is no faster than the loop's bound."""
    found = written_in_body_order(problem, body) if replays(problem, body) else None
    if found is None:
        return None
    _, in_order_ii, in_order, length = found
    if in_order_ii < written.mii or not sync_modelled(problem, body, in_order_ii, in_order, written.versions,
                                                      gather=False):
        return None
    return as_program_order(written, in_order_ii, in_order, length, written.versions)


def _first_counts(problem: LoopProblem, body: int, written: LoopResult, in_order: LoopResult,
                  ) -> tuple[int, LoopResult, tuple[int, int], int]:
    """`_faster_counts` of `in_order` with the pipelined loop's versions and at one version
    per buffer (module doc), the one of more counts (at as many, the faster at the last):
    K, that form, its and the pipelined code's cycles at K, and the pipelined code's at
    one trip."""
    below, at, ours_once = _faster_counts(problem, body, written, in_order)
    one = _one_version_each(problem, in_order)
    if one.versions == in_order.versions or not sync_modelled(problem, body, one.ii, one.start, one.versions,
                                                              gather=False):
        return below, in_order, at, ours_once
    one_below, one_at, _ = _faster_counts(problem, body, written, one)
    if (one_below, -one_at[0]) > (below, -at[0]):
        return one_below, one, one_at, ours_once
    return below, in_order, at, ours_once


def _faster_counts(problem: LoopProblem, body: int, written: LoopResult, in_order: LoopResult,
                   ) -> tuple[int, tuple[int, int], int]:
    """K, the largest count up to MAX_TRIPS at which `in_order`'s code runs 1 .. K trips
    faster than the code of `written` by more than the margin (0: not at one trip), the
    two codes' cycles at K, and the code of `written`'s at one trip."""
    below, at, ours_once = 0, (0, 0), 0
    for trips in range(1, MAX_TRIPS + 1):
        theirs, ours = _replayed_at(problem, body, written, in_order, trips)
        ours_once = ours_once or ours
        if theirs * 100 >= ours * (100 - MARGIN_PERCENT):
            break
        below, at = trips, (theirs, ours)
    return below, at, ours_once


def _throughout(problem: LoopProblem, body: int, written: LoopResult, in_order: LoopResult,
                slack_percent: int) -> LoopResult | None:
    """Program order at every count, one version per buffer (the loop has no other code to
    share them with), as its code runs (`program_order_as_run`, no rings of ids: the count
    is not known), where it is faster than the code of `written` up to MAX_TRIPS and at
    STEADY_TRIPS too: a pipelined loop behind `trips > MAX_TRIPS` runs every larger count
    slower than program order would (two chains of 8 and 16 rows of 512 f16 on the 910B,
    num_stages 3, 17 trips: 12862 cycles against program order's 10361, 726 a pass
    against 580). None otherwise."""
    steady = _faster_in_steady_state(problem, body, written, in_order)
    if steady is None:
        return None
    in_order, cycles = steady
    theirs, ours = cycles[-1]
    return _written_as_run(problem, body, written, in_order, slack_percent,
                           f"at every count weighed (1 to {MAX_TRIPS}, {' and '.join(map(str, STEADY_TRIPS))} trips, a "
                           f"count known at run time): {theirs} cycles against {ours} at {STEADY_TRIPS[-1]}")


def _in_steady_state(problem: LoopProblem, body: int, written: LoopResult, in_order: LoopResult, ours_once: int,
                     slack_percent: int) -> LoopResult | None:
    """Program order at every count, as `_throughout`, where it was not faster at one trip
    (the code of `written` ran `ours_once` cycles there) but is at STEADY_TRIPS by more
    than the pipelined code gains at one trip: the counts beyond weigh more than the
    first. Unseen seed 970 on skewed.toml (12 chains, 6 ids per pair, a count known at
    run time): the pipelined code replayed 688 cycles at one trip against program
    order's 1104 and was kept, while it ran 1426 an iteration against program order's
    1000: 91967 cycles at 64 trips against 64080. (At one trip it ran 2033: its prologue's
    flags, short of ids, fell back to pipe_barrier[<PIPE_ALL>]s the replay does not see.)"""
    steady = _faster_in_steady_state(problem, body, written, in_order)
    if steady is None:
        return None
    in_order, cycles = steady
    theirs = loop_cycles(problem, body, in_order.ii, in_order.start, in_order.versions, 1, gather=False, runtime=True)
    (first_theirs, first_ours), (at_most, at_least) = cycles[0], cycles[-1]
    if theirs - ours_once > first_ours - first_theirs:
        return None
    return _written_as_run(problem, body, written, in_order, slack_percent,
                           f"from {STEADY_TRIPS[0]} trips (a count known at run time: {at_most} cycles against "
                           f"{at_least} at {STEADY_TRIPS[-1]}) by more than it loses at one trip ({theirs} against "
                           f"{ours_once})")


def _ahead_at_every_count(problem: LoopProblem, body: int, written: LoopResult, in_order: LoopResult,
                          slack_percent: int) -> LoopResult | None:
    """Program order at every count, as `_throughout`, where its code replays faster than
    the code of `written` at each count weighed (1 to MAX_TRIPS and STEADY_TRIPS), by less
    than the margin beyond its first counts, and no slower from the first of STEADY_TRIPS
    to the last: the two codes settle at one II and program order's fill is the shorter,
    so it stays ahead at every count beyond. The margin is for the replay's error on a
    pass, which a lead that neither shrinks nor changes sign over 64 trips is not (narrow
    seed 747 on the 950 and the 910B, two chains, a count known at run time: both codes
    ran 727 cycles an iteration and the pipelined one 98 more in all at every count from
    8; replayed 103 more; program order for 6 trips only, 12910 cycles against its
    12812 at 17)."""
    in_order = _one_version_each(problem, in_order)
    cycles: list[tuple[int, int]] = []
    for trips in (*range(1, MAX_TRIPS + 1), *STEADY_TRIPS):
        theirs, ours = _replayed_at(problem, body, written, in_order, trips)
        if theirs >= ours:
            return None
        cycles.append((theirs, ours))
    if _slower_an_iteration(cycles[-len(STEADY_TRIPS)], cycles[-1]):
        return None  # program order runs slower an iteration: the pipelined code overtakes it later
    last_theirs, last_ours = cycles[-1]
    return _written_as_run(problem, body, written, in_order, slack_percent,
                           f"at every count weighed (1 to {MAX_TRIPS}, {' and '.join(map(str, STEADY_TRIPS))} trips, a "
                           f"count known at run time), no slower an iteration from {STEADY_TRIPS[0]} to "
                           f"{STEADY_TRIPS[-1]}: {last_theirs} cycles against {last_ours} at {STEADY_TRIPS[-1]}")


def _barrier_synced(problem: LoopProblem, body: int, written: LoopResult, in_order: LoopResult, below: int,
                    throughout: LoopResult | None, slack_percent: int) -> LoopResult | None:
    """Program order at every count with its hand-offs as pipe_barrier[<PIPE_ALL>]s
    (`barrier_sync`, one version per buffer), where its code replays no slower than the
    code the loop would get otherwise (`throughout`, else `in_order` up to `below` trips
    and `written` beyond) at each count weighed, faster at the last, and no slower an
    iteration from the first of STEADY_TRIPS to the last. A count known at compile time
    weighs the same barriers with no margin (`program_order_result`): where the code runs
    one op at a time, a barrier costs one issue cycle and a flag its set's drain and its
    wait (narrow seed 1019 on skewed.toml, one chain of 4 ops, 17 trips at run time: the
    pipelined schedule's code ran in program order at 805 cycles an iteration, 13876 in all,
    against barrier-all's 802 and 13820). STEADY_TRIPS are weighed first: a loop that
    overlaps its iterations is past barriers there, and its own code's cycles at 16 trips
    are known already (`_faster_in_steady_state`), so that takes one replay (weighing 64
    trips first took two: five runtime-count draws of 2-5 CPU s compiled 5% slower)."""
    barred = _barred(problem, in_order)
    cycles: dict[int, tuple[int, int]] = {}
    for trips in (*STEADY_TRIPS, *range(1, MAX_TRIPS + 1)):
        theirs = loop_cycles(problem, body, barred.ii, barred.start, barred.versions, trips, gather=False,
                             barriers=True, runtime=True)
        if throughout is not None:
            ours = written_cycles(problem, body, throughout, trips, gather=False, runtime=True)
        elif trips <= below:
            ours = _replayed_at(problem, body, written, in_order, trips)[0]
        else:
            ours = written_cycles(problem, body, written, trips, runtime=True)
        if theirs > ours or (trips == STEADY_TRIPS[-1] and theirs == ours):
            return None
        cycles[trips] = (theirs, ours)
    if _slower_an_iteration(cycles[STEADY_TRIPS[0]], cycles[STEADY_TRIPS[-1]]):
        return None
    last_theirs, last_ours = cycles[STEADY_TRIPS[-1]]
    as_run = barrier_synced_as_run(problem, body, barred, slack_percent)
    return replace(as_run, message=f"program order with its hand-offs pipe_barrier[<PIPE_ALL>]s replays no slower "
                                   f"than the loop's other code at every count weighed (1 to {MAX_TRIPS}, "
                                   f"{' and '.join(map(str, STEADY_TRIPS))} trips, a count known at run time): "
                                   f"{last_theirs} cycles against {last_ours} at {STEADY_TRIPS[-1]}"
                                   + written_as_run_note(as_run.ii))


def _written_as_run(problem: LoopProblem, body: int, written: LoopResult, in_order: LoopResult,
                    slack_percent: int, why: str) -> LoopResult:
    """`in_order` at the II its code runs at, its remark saying `why` it beat `written`."""
    as_run = program_order_as_run(problem, body, in_order, written.mii, None, slack_percent)
    return replace(as_run, message=f"program order replays faster than the pipelined schedule (II {written.ii}) "
                                   f"{why}" + written_as_run_note(as_run.ii))


def _faster_in_steady_state(problem: LoopProblem, body: int, written: LoopResult, in_order: LoopResult,
                            ) -> tuple[LoopResult, list[tuple[int, int]]] | None:
    """`in_order` with one version per buffer and its and `written`'s cycles at each of
    STEADY_TRIPS, where it replays faster than `written`'s code by more than the margin
    at each of them; None otherwise."""
    in_order = _one_version_each(problem, in_order)
    cycles: list[tuple[int, int]] = []
    for trips in STEADY_TRIPS:
        theirs, ours = _replayed_at(problem, body, written, in_order, trips)
        if theirs * 100 >= ours * (100 - MARGIN_PERCENT):
            return None
        cycles.append((theirs, ours))
    return in_order, cycles


def _replayed_at(problem: LoopProblem, body: int, written: LoopResult, in_order: LoopResult,
                 trips: int) -> tuple[int, int]:
    """The replayed cycles of `in_order`'s code and of `written`'s at `trips`, as insert-sync
    writes a loop whose count is known at run time."""
    theirs = loop_cycles(problem, body, in_order.ii, in_order.start, in_order.versions, trips, gather=False,
                         runtime=True)
    return theirs, written_cycles(problem, body, written, trips, runtime=True)


def _one_version_each(problem: LoopProblem, in_order: LoopResult) -> LoopResult:
    """`in_order` with one version per buffer: program order at every count has no other
    code of the loop to share them with."""
    return replace(in_order, versions={b.name: 1 for b in problem.buffers})


def _barred(problem: LoopProblem, in_order: LoopResult) -> LoopResult:
    """`in_order` with its hand-offs as pipe_barrier[<PIPE_ALL>]s (`barrier_sync`), one
    version per buffer."""
    return _one_version_each(problem, replace(in_order, stats={**in_order.stats, "barrier_sync": True}))


def _slower_an_iteration(first: tuple[int, int], last: tuple[int, int]) -> bool:
    """Whether the first of two codes, replayed (theirs, ours) at the first and the last
    of STEADY_TRIPS, costs more an iteration between them than the second: the second
    overtakes it at some count beyond."""
    return last[0] - first[0] > last[1] - first[1]


def remainder_barriers(problem: LoopProblem, body: int, written: LoopResult, most: int,
                       slack_percent: int) -> LoopResult | None:
    """For the remainder loop of a loop unrolled U times whose count is known at run time
    only: program order with its hand-offs as pipe_barrier[<PIPE_ALL>]s (one version per
    buffer) where its code replays no slower than the code of `written` at each count it
    can run, 1 to `most` = U - 1 (None otherwise). Pipelined, a remainder of one pass paid
    its primes, drains and version arithmetic for nothing (narrow seed 4157 on the 910B,
    U = 2, one trip: 346 cycles against barrier-all's 327); the steady state the other
    forms buy is never reached in U - 1 passes."""
    in_order = _in_order(problem, body, written)
    if in_order is None or most < 1:
        return None
    barred = _barred(problem, in_order)
    for trips in range(1, most + 1):
        theirs = loop_cycles(problem, body, barred.ii, barred.start, barred.versions, trips, gather=False,
                             barriers=True, runtime=True)
        if theirs > written_cycles(problem, body, written, trips, runtime=True):
            return None
    as_run = barrier_synced_as_run(problem, body, barred, slack_percent)
    return replace(as_run, message=f"a remainder of at most {most} pass{'es' if most > 1 else ''}: program order "
                                   f"with its hand-offs pipe_barrier[<PIPE_ALL>]s replays no slower than its "
                                   f"pipelined code at each of its counts" + written_as_run_note(as_run.ii))
