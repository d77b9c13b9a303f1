"""Which of a loop's two schedules ascend-modulo-schedule keeps: the plain model's or the
gathered one's (one set point per publishing pipe, `scheduling/set_points.py`), each
weighed by what its code does as written (helpers of ascend-modulo-schedule).

The solver's II is the model's; the choice between the two is made on their code, as
`scheduling/realize.py` replays it. Where the count is known: over the loop's trips,
fill and drain included, with insert-sync's rings of ids (a carried flag on one id per
pass in flight); within the replay's error there, the gathered schedule only where both
steady readings favour it too, its II written and its slower replay (with and without
rings: without, every carried flag waited in its own pass). Where the count is known at
run time only: on those steady readings, the gathered schedule (whose drains are the
ones its model reserves) kept unless both say the plain code runs faster.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ascend_mlir.analysis.loop_model import LoopModel
from ascend_mlir.scheduling import LoopResult
from ascend_mlir.scheduling.code_timing import code_form, written_cycles
from ascend_mlir.scheduling.problem import LoopProblem
from ascend_mlir.scheduling.realize import both_cores, realize, replays
from ascend_mlir.scheduling.realize import loop_cycles as code_cycles

# a loop above GATHER_MAX_TASKS is solved gathered only where the code of its plain
# schedule replays at least this many percent slower than the solver's II: below that the
# drains the gathering saves are worth less than the solve costs (chains 16 x 8: plain
# code 1.23x its II, gathered 3120 against 3204 cycles an iteration for 4.1 against 0.9 CPU
# s; 32 x 8: 1.19x, 14.8 against 2.1 s), above it they are not (4 x 16: 1.71x, 910 against
# 1086; 8 x 8: 1.45x, 1646 against 2132)
GATHER_LARGE_MIN_LOSS = 30


@dataclass
class WrittenForms:
    """One loop's schedules as their code would be written (`as_written`: the pass's
    `_as_run` of its `_unskewed`) and the slower replay of that code, each found once per
    schedule: the plain schedule of a large loop is asked about by `code_loses_little`,
    again by `plain_code_wins` and once more as the schedule to write (4-14 replays each,
    a tenth of the compile of test_scheduled_ii's wide loops). Keyed by the schedule
    object, which it keeps."""

    as_written: Callable[[LoopResult], LoopResult]
    model: LoopModel
    _written: dict[int, tuple[LoopResult, LoopResult]] = field(default_factory=dict)
    _replays: dict[int, tuple[LoopResult, int]] = field(default_factory=dict)

    def written(self, solved: LoopResult) -> LoopResult:
        known = self._written.get(id(solved))
        if known is None:
            known = self._written[id(solved)] = (solved, self.as_written(solved))
        return known[1]

    def cycles(self, solved: LoopResult, trips: int) -> int:
        """The cycles `solved`'s code, as it would be written, runs `trips` iterations in,
        fill and drain included (the replay is kept by the problem: asked again, free)."""
        model = self.model
        return written_cycles(model.problem(), len(model.tasks), self.written(solved), trips)

    def slower_replay(self, solved: LoopResult) -> int:
        """The II of `solved`'s code as it would be written, the slower of its replays
        with and without insert-sync's rings of ids."""
        known = self._replays.get(id(solved))
        if known is None:
            model, plain = self.model, self.model.problem()
            body, written = len(model.tasks), self.written(solved)
            ii = written.ii
            if model.model_flag_drains and replays(plain, body):
                at, start = code_form(written)
                ii = max(ii, realize(plain, body, at, start, written.versions,
                                     one_pass=bool(written.stats.get("one_pass"))).ii)
            known = self._replays[id(solved)] = (solved, ii)
        return known[1]


def code_loses_little(forms: WrittenForms, result: LoopResult) -> bool:
    """Whether the plain schedule's code replays within GATHER_LARGE_MIN_LOSS percent
    of the solver's II: then gathering the loop's sets cannot win back its solve."""
    return forms.slower_replay(result) * 100 < result.ii * (100 + GATHER_LARGE_MIN_LOSS)


def plain_code_wins(forms: WrittenForms, gathered: LoopResult, plain: LoopResult, large: bool,
                    slack_percent: int) -> bool:
    """Whether the plain schedule is kept over the gathered one (`large`: a loop above
    GATHER_MAX_TASKS, whose gathered solve gives up at once)."""
    model = forms.model
    if is_sequential(gathered) and not is_sequential(plain) and not _sequential_pays(forms, gathered, plain):
        # the solver found no overlapped schedule of the gathered model within its
        # budget: one drain per pipe does not pay for losing the plain schedule's
        # overlap (bench random kernel 0: 8890 cycles plain, 10763 sequential), unless
        # the sequential code runs the known trips faster
        return True
    if large and not _gathered_runs_faster(forms, gathered, plain, slack_percent):
        return True
    if not large and _gathered_gave_up(forms, gathered, plain, slack_percent):
        return True
    problem = model.problem()
    return gathered.ii > plain.ii and both_cores(problem, len(model.tasks)) and (
        _mix_code_cycles(model, problem, plain) < _mix_code_cycles(model, problem, gathered))


def is_sequential(result: LoopResult) -> bool:
    """Whether the loop's schedule is the sequential one (no overlap of iterations that
    the solver or the iterative modulo scheduler found)."""
    return result.stats.get("schedule_from") == "heuristic" and result.stats.get("heuristic") == "sequential schedule"


def _gathered_runs_faster(forms: WrittenForms, gathered: LoopResult, plain: LoopResult, slack_percent: int) -> bool:
    """Whether the code of the gathered schedule runs faster than the plain one's, each
    as it would be written (`_as_run`): over the known trips, fill and drain included
    (the replay then carries insert-sync's rings of ids), by more than `slack_percent`;
    within it, where both its II written and its slower replay (with and without rings)
    are the lower too; with the count known at run time, by either of those two.
    Weighed by the slower replay at any count, the plain code was kept where the
    gathered code runs on rings (unseen seed 44 on the 910B, 10 chains, 17 trips:
    gathered 363 with rings and 1095 without, ran 363; plain 857 both ways, ran 857:
    14551 cycles against 6659; four_ids seed 307: 61547 against 18376). Weighed by the
    II alone, one trip took the gathered code, whose fill is the longer (four_ids seed
    318, 12 chains: written 809 against 1050, replayed 3390 cycles against 1630 over its
    one trip, ran 2204 against 1647). Within the slack the replay over the trips is no
    guide, and neither steady reading alone is: three_ids seed 212, 7 trips, 8464 against
    8412 replayed, ran 8034 against 8457 (written 995 against 1201, slower replay the
    same); four_ids seed 320, 2 trips, 4432 against 4398, ran 4314 against 2923 (written
    1153 against 858, slower replay 1938 against 2679); bench random kernel 22 on the 950,
    6 trips, 3759 against 3769, ran 3768 against 3355 (written 540 against 634, slower
    replay 1447 against 634). On 89 choices measured both ways (unseen wide draws on the
    910B, four_ids, three_ids and skewed, the wide bench kernels) this rule lost 411
    cycles in all to the better code of each, weighing over the trips alone 1357, by the
    II written within the slack 934, by the slower replay alone (before) 68211."""
    trips = forms.model.trip_count
    ours, theirs = forms.written(gathered), forms.written(plain)
    if trips is not None:
        ours_cycles, theirs_cycles = forms.cycles(gathered, trips), forms.cycles(plain, trips)
        if ours_cycles * 100 < theirs_cycles * (100 - slack_percent):
            return True
        if theirs_cycles * 100 < ours_cycles * (100 - slack_percent):
            return False
        return ours.ii <= theirs.ii and forms.slower_replay(gathered) < forms.slower_replay(plain)
    return ours.ii < theirs.ii or forms.slower_replay(gathered) < forms.slower_replay(plain)


def _sequential_pays(forms: WrittenForms, gathered: LoopResult, plain: LoopResult) -> bool:
    """Whether the code of the gathered model's sequential schedule (its solve found no
    overlapped one) runs the loop's known trips faster than the plain schedule's code,
    each as written, fill and drain included. The plain schedule overlaps on paper and
    sets after each store in its code (unseen seed 32 on the 910B, 5 chains of one buffer
    version each: plain II 357, written and run at 847, four drains of MTE3 a pass;
    gathered sequential at 708, ran 694). Not with a count known at run time, where the
    plain schedule's code is weighed against program order next, which the sequential
    one's code is not weighed against as well (seed 970 on skewed.toml, 12 chains: the
    sequential code ran 58182 cycles at 64 trips where program order's first-counts
    choice over the plain one ran 52528)."""
    trips = forms.model.trip_count
    return trips is not None and forms.cycles(gathered, trips) < forms.cycles(plain, trips)


def _gathered_gave_up(forms: WrittenForms, gathered: LoopResult, plain: LoopResult, slack_percent: int) -> bool:
    """Whether the gathered solve ran out of budget above a schedule whose code the
    plain one's beats as written (`_as_run`): over the known trips, fill and drain
    included, else on the II its code runs at. One drain per pipe was meant to win
    back the plain code's extra drains, not to cost II the solver did not search
    (unseen seed 373 on the 910B, 3 chains, 16 trips: plain II 232, written 339, ran
    339; gathered 542 feasible, every probe below it unknown, ran 430). Weighed
    over the trips: on few trips the gathered code's shorter fill may win at an II
    no lower (910B seed 33, 3 trips: 621 cycles gathered, 1084 plain, both at 251).
    Only by more than `slack_percent`: the gathered code's sets are the drains its
    schedule reserves, where the plain code's are not (chains 4 x 8, 16 trips: plain
    874 a pass and 14468 cycles, gathered 911 and 14663, kept)."""
    if gathered.status == "optimal":
        return False
    trips = forms.model.trip_count
    if trips is None:
        return forms.written(plain).ii * 100 < forms.written(gathered).ii * (100 - slack_percent)
    return forms.cycles(plain, trips) * 100 < forms.cycles(gathered, trips) * (100 - slack_percent)


def _mix_code_cycles(model: LoopModel, plain: LoopProblem, solved: LoopResult) -> int:
    """What the code of `solved`, a schedule of a loop of both cores, costs as the
    replay sees it: its cycles over the known trips, else its steady II.

    The replay leaves the cores' hand-offs by sync_block flags out (`replays` is false
    for such a loop), the same approximation on both sides: it weighs a gathered
    schedule against the plain one where gathering costs II. The plain model reserves one drain per pipe
    where its code may set at several points (unseen_cube seed 6: plain II 422,
    replayed 650, ran about 590; gathered 445, ran about 400), and the gathered
    model adds a recurrence through its one set point (seed 312: II 551, replayed
    564, ran 567; plain II 295, replayed 466, ran like program order's 466). The
    trips count on short loops: weighed by the steady II alone, seed 15 (2 trips)
    took the plain code, whose fill is longer, and ran 2% slower."""
    body = len(model.tasks)
    ii, start = code_form(solved)
    if model.trip_count:
        return code_cycles(plain, body, ii, start, solved.versions, trips=model.trip_count)
    return realize(plain, body, ii, start, solved.versions).ii
