"""The schedule a loop's code keeps: its replayed timing written as a schedule (issue 18
item 1), IR-free.

`realize` replays the code of a schedule (per-pipe in-order queues, the HBM port to the
first ready pipe, sets at their points). Where that code runs slower than the schedule's
II, the II the loop is written with should be the code's. `realize.code_schedule` keeps
the body's program order and moves the replayed starts up until it holds; on wider loops
that fails: chains4x8's code runs a store at 1405 and a vector op of another chain at
1392, the schedule had them tied in the other order, and keeping that order puts the
vector pipe across a stage boundary (its solver schedule 813, its code 909, run 911).

`steady_schedule` writes the replayed timing itself: the body in the order the code
runs it (ties as before), each pipe's tasks in one stage (a stage boundary in a cycle no
pipe spans), a valid schedule at the replayed II. Its program order is a new one, so
the sync the code gets may differ (set points are placed from the starts): the written
schedule is replayed again, and it is taken only when its own code runs at its II
(a fixed point, within `slack_percent`) and no slower than the code it replaces.
"""

from __future__ import annotations

from dataclasses import replace

from .bounds import check_schedule
from .problem import LoopProblem, LoopResult
from .realize import Realized, _body, kernel_shift, realize

# rounds of replay -> write -> replay before giving up on a fixed point
ROUNDS = 3


def one_stage_starts(p: LoopProblem, body_tasks: int, ii: int, start: list[int]) -> list[int] | None:
    """`start` shifted by one constant so every pipe's tasks share a stage at `ii` (the
    boundary in a cycle, modulo `ii`, that no pipe's tasks span), the earliest at least
    0; None when every cycle is spanned by some pipe."""
    body = start[:body_tasks]
    for boundary in sorted({s % ii for s in body}):
        shifted = [s - boundary for s in body]
        low = min(shifted)
        if low < 0:
            shifted = [s + -(low // ii) * ii for s in shifted]
        if not any(kernel_shift(p, body_tasks, ii, shifted)):
            return shifted
    return None


def _written(p: LoopProblem, body_tasks: int, result: LoopResult, ii: int, start: list[int]) -> LoopResult:
    full = start + list(result.start[body_tasks:])
    return replace(result, ii=ii, start=full, stage=[s // ii for s in full], offset=[s % ii for s in full],
                   length=max((s + t.latency for s, t in zip(start, p.tasks, strict=False)), default=0))


def steady_schedule(p: LoopProblem, body_tasks: int, result: LoopResult, run: Realized,
                    slack_percent: int) -> tuple[LoopResult, Realized] | None:
    """`result` rewritten as the timing of its code (`run`, its replay; module doc) and
    the replay of the written schedule's code, when that code runs at the written II
    (within `slack_percent`) and no slower than `run`; None otherwise. Only for a loop
    whose every pipe keeps one stage (the code of a stage-skewed loop is other code)."""
    if any(kernel_shift(p, body_tasks, result.ii, result.start)):
        return None
    body, original = _body(p, body_tasks), run.ii
    for _ in range(ROUNDS):
        start = one_stage_starts(p, body_tasks, run.ii, run.start)
        if start is None or check_schedule(body, run.ii, start, result.versions):
            return None
        written = _written(p, body_tasks, result, run.ii, start)
        again = realize(p, body_tasks, written.ii, written.start, written.versions)
        if again.ii * 100 <= written.ii * (100 + slack_percent):
            return (written, again) if again.ii <= original else None
        result, run = written, again
    return None
