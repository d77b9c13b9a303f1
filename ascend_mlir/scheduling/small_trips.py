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
from itertools import accumulate

from .code_timing import written_cycles
from .problem import LoopProblem, LoopResult
from .program_order import program_order_schedule
from .realize import loop_cycles, replays, sync_modelled

# the most trips program order is weighed at: the replays cost compile time (63 runtime-trip
# loops of unseen seeds 0-200 on the 910B, 83.0 -> 87.5 CPU s in all). Of those, seed 2
# takes program order, for all eight (with the loop's buffer versions it replays about 4%
# faster at every count up to 64); none on four_ids; seed 659 (above) for one trip
MAX_TRIPS = 8
# program order must replay faster by more than this (the replay's error on one pass is
# about 2%: seed 659 replayed 1345 and 1258, ran 1369 and 1288)
MARGIN_PERCENT = 2


def program_order_below(problem: LoopProblem, body: int, written: LoopResult, mii: int
                        ) -> tuple[int, LoopResult, tuple[int, int]] | None:
    """(K, the program-order schedule, its and `written`'s replayed cycles at K trips)
    when program order's code runs 1 .. K trips faster than the code of `written`; None
    where it does not at one trip, or where the replay models neither code."""
    if not replays(problem, body):
        return None
    try:
        ii, start = program_order_schedule(problem, body)
    except ValueError:
        return None
    in_order = list(accumulate(start, max))
    in_order_ii = max(ii, in_order[-1] + 1)  # one past the last start: every task in stage 0
    if in_order_ii < mii or not sync_modelled(problem, body, in_order_ii, in_order, written.versions, gather=False):
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
    length = max(s + t.latency for s, t in zip(start, problem.tasks, strict=True))
    in_program_order = replace(
        written, ii=in_order_ii, status="program-order", start=in_order, stage=[0] * len(in_order),
        offset=list(in_order), length=length, stats={}, message="")
    return below, in_program_order, at
