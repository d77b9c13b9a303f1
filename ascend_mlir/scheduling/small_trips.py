"""Program order for the first few counts of a loop whose trip count is known at run time.

A modulo schedule buys its steady state with a longer pass: at one to three trips the
code of a wide loop's schedule may run slower than the same body in program order
(unseen seed 659 on the 910B, 6 chains, one trip: 1369 cycles against program order's
1288). With the count known at compile time ascend-modulo-schedule weighs the two over it
(`program_order_result`). Known at run time only, the loop may get both codes:
ascend-pipeline-loops writes `scf.if (trips > K) { the pipelined loop } else { the loop
in program order }`, where K is the largest count at which program order's code replays
faster (and at every count below it) by more than `MARGIN_PERCENT`.

Both codes are replayed as insert-sync writes a loop of unknown count (`realize.loop_cycles`
with `runtime`: no rings of ids). Program order keeps the pipelined loop's buffer
versions: the two loops share the buffers, which ascend-multi-buffer indexes per pass.
"""

from __future__ import annotations

from dataclasses import replace

from .code_timing import program_order_as_run, written_cycles
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
# what `program_order_below` finds: K, the program-order schedule, and its and the
# pipelined code's replayed cycles at K trips
Below = tuple[int, LoopResult, tuple[int, int]]
# the counts beyond MAX_TRIPS at which program order, faster at each count up to it, is
# weighed again: faster there too, it is the loop's code at every count
STEADY_TRIPS = (2 * MAX_TRIPS, 8 * MAX_TRIPS)


def program_order_below(problem: LoopProblem, body: int, written: LoopResult) -> Below | None:
    """(K, the program-order schedule, its and `written`'s replayed cycles at K trips)
    when program order's code runs 1 .. K trips faster than the code of `written`; None
    where it does not at one trip, or where the replay models neither code (nor one below
    the loop's bound, `written.mii`: `program_order_result` says why)."""
    found = written_in_body_order(problem, body) if replays(problem, body) else None
    if found is None:
        return None
    _, in_order_ii, in_order, length = found
    if in_order_ii < written.mii or not sync_modelled(problem, body, in_order_ii, in_order, written.versions,
                                                      gather=False):
        return None
    below, at = 0, (0, 0)
    for trips in range(1, MAX_TRIPS + 1):
        ours = written_cycles(problem, body, written, trips, runtime=True)
        theirs = loop_cycles(problem, body, in_order_ii, in_order, written.versions, trips, gather=False, runtime=True)
        if theirs * 100 >= ours * (100 - MARGIN_PERCENT):
            break
        below, at = trips, (theirs, ours)
    if not below:
        return None
    return below, as_program_order(written, in_order_ii, in_order, length, written.versions), at


def program_order_throughout(problem: LoopProblem, body: int, written: LoopResult,
                             found: Below, slack_percent: int) -> LoopResult | None:
    """Program order at every count, one version per buffer (the loop has no other code to
    share them with), as its code runs (`program_order_as_run`, no rings of ids: the count
    is not known), where `program_order_below` found it faster than the code of `written`
    up to MAX_TRIPS and it is at STEADY_TRIPS too: a pipelined loop behind
    `trips > MAX_TRIPS` runs every larger count slower than program order would (two
    chains of 8 and 16 rows of 512 f16 on the 910B, num_stages 3, 17 trips: 12862 cycles
    against program order's 10361, 726 a pass against 580). None otherwise."""
    below, in_order, _ = found
    if below < MAX_TRIPS:
        return None
    in_order = replace(in_order, versions={b.name: 1 for b in problem.buffers})
    for trips in STEADY_TRIPS:
        ours = written_cycles(problem, body, written, trips, runtime=True)
        theirs = loop_cycles(problem, body, in_order.ii, in_order.start, in_order.versions, trips, gather=False,
                             runtime=True)
        if theirs * 100 >= ours * (100 - MARGIN_PERCENT):
            return None
    as_run = program_order_as_run(problem, body, in_order, written.mii, None, slack_percent)
    return replace(as_run, message=f"program order replays faster than the pipelined schedule (II {written.ii}) "
                                   f"at every count weighed (1 to {MAX_TRIPS}, {' and '.join(map(str, STEADY_TRIPS))}"
                                   f" trips, a count known at run time): {theirs} cycles against {ours} at "
                                   f"{STEADY_TRIPS[-1]}; written at the II its code runs at ({as_run.ii})")
