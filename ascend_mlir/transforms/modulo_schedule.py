"""`ascend-modulo-schedule`: per loop II, per op stage/start, per buffer version count.

Loops are scheduled innermost first; a scheduled inner loop is one task of its parent
with the serial-loop cost `(II*(n-1) + length, II*n)`. Straight-line code (the function
body outside loops) is scheduled for minimal makespan. Results are typed attributes of
the `ascend` dialect (ascend_mlir/dialects/ascend.py), written through its accessors:

* on each `scf.for`: `#ascend.loop<ii, mii, res_mii, rec_mii, binding, status>`, and its
  `#ascend.task` as one task of its parent (the whole loop's latency and ii, its slot);
* on each task op: the slot (`stage`, `start`) added to its `#ascend.task` cost;
* on each on-chip `memref.alloc` a loop may multi-buffer: `#ascend.buffer<versions>`.

No wall-clock time goes into the IR (the output is the same bytes on every run): with
`report-solve-time=true` each loop's solve time is a remark on stderr. A loop whose II
is not proven optimal gets a remark too (never a silent fallback).
Costs come from `#ascend.task`; ops without one are estimated here.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any, Callable

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ascend_mlir import hardware
from ascend_mlir.analysis.hardware_checks import require_hivm_level
from ascend_mlir.analysis.latency_model import Cost, serial_loop
from ascend_mlir.analysis.loop_model import (
    LoopModel,
    build_loop_model,
    loops_innermost_first,
    loop_num_stages,
    scheduled_loop_cost,
    straight_line_problem,
)
from ascend_mlir.chips import Chip
from ascend_mlir.compile_cache import solve_through
from ascend_mlir.diagnostics import emit_remark, op_error
from ascend_mlir.dialects import ascend
from ascend_mlir.scheduling import (
    LoopProblem,
    LoopResult,
    SchedulingError,
    schedule_loop,
    schedule_region,
)
from ascend_mlir.scheduling.modulo import ii_lower_bound, schedules_at
from ascend_mlir.scheduling.code_timing import (barrier_synced_as_run, code_form, code_schedule_at_its_code,
                                                 labelled_at_its_code, one_pass_schedule, program_order_as_run,
                                                 program_order_labelled,
                                                 settled_from_its_prologue, skewed_schedule, steady_schedule,
                                                 stretched, unskewed, written_as_run, written_as_run_note,
                                                 written_cycles)
from ascend_mlir.scheduling.program_order import as_program_order, written_in_body_order
from ascend_mlir.scheduling.loop_code import kernel_shift
from ascend_mlir.scheduling.realize import both_cores, realize, replays, sync_modelled
from ascend_mlir.scheduling.realize import loop_cycles as code_cycles
from ascend_mlir.scheduling.set_points import gathered, keeps_points
from ascend_mlir.scheduling.small_trips import Below, remainder_barriers, weigh_program_order
from ascend_mlir.scheduling.unroll import (
    UNROLL_FACTORS,
    better,
    buffer_renaming,
    coalesced,
    cut_off,
    from_retimed,
    port_order,
    structure_key,
    unrolled_problem,
)
from ascend_mlir.transforms.estimate_latency import annotate_latencies, module_chip
from ascend_mlir.transforms.gathered_choice import WrittenForms, code_loses_little, plain_code_wins
from ascend_mlir.transforms.unroll_loop import unroll_loop, unrolled_copy, why_not_unrollable

SEARCHES = ("incremental", "bisect")
# the solver's budget on a loop whose sets are gathered (set_points.gathered) unless the
# rlimit option says otherwise: the coupled consumers make its proofs hard (every probe
# of a 32-op chain kernel answers unknown at the default budget, after 10 s CPU), and the
# heuristic's schedule is kept then, said so in a remark
GATHERED_RLIMIT = 1_000_000
# the largest loop body (tasks) whose gathered schedule is taken as the solver gives it;
# a larger one is solved gathered on LARGE_GATHERED_RLIMIT (its probes answer unknown at
# any budget we can pay: 2.9 s CPU on 32 ops, 8 s on 64 and 22 s on 128 at the default)
# and taken only where its code replays faster (`gathered_choice.plain_code_wins`)
GATHER_MAX_TASKS = 40
# the gathered solve's budget above GATHER_MAX_TASKS: the probes give up at once and the
# iterative modulo scheduling's schedule is taken (chains 8 x 8: 0.78 s CPU, against 1.8 s
# at GATHERED_RLIMIT for the same II 1540)
LARGE_GATHERED_RLIMIT = 20_000
# the solver budget of one trial of an unroll factor (a tenth of schedule_loop's default):
# a trial only decides whether the factor wins; the chosen factor's loop is solved again in
# full from the trial's schedule (a trial that could not win cost 13.6 s CPU on a 66-task
# unrolled loop of 4 chains under the default budget, 3.4 s under this one)
TRIAL_RLIMIT = 5_000_000
# a loop whose code runs (scheduling/realize.py) at most this much slower than its II
# keeps its schedule: below it the difference is the set_flag / wait_flag cycles the
# solver leaves out (softmax: 1280 scheduled and proven optimal, 1282 replayed), above it
# a pipe took a shared port where the schedule left a gap (chains3x8: 637 vs 727)
CODE_SLACK_PERCENT = 2
# how much slower at two trips another schedule of a loop whose count is known at run
# time only may run than the solver's, where its steady II is lower (`_kept_by_its_code`)
RUNTIME_FILL_PERCENT = 10


def secondary_note(result: LoopResult) -> str:
    """What is not minimal about buffer bytes and schedule length ('' when both are)."""
    if result.stats.get("bytes_optimal") is None:
        return "buffer bytes and schedule length not optimised (ii-only)"
    unproven = [what for key, what in (("bytes", "buffer bytes"), ("length", "schedule length"))
                if not result.stats.get(f"{key}_optimal")]
    return f"{' and '.join(unproven)} not proven minimal (budget)" if unproven else ""


# what the solver raises for a problem it rejects (malformed input / no schedule at all)
SOLVER_ERRORS = (ValueError, SchedulingError)


def _check_stage_limits(module: ModuleOp, option: int | None, chip: Chip) -> None:
    """Buffer versions are bounded by the event ids of a pipe pair (each version of a
    loop-carried dependence has its own flag): at most the chip's events_per_pipe_pair,
    for the option and for every loop's own bound (a 1e23 bound is refused here, before
    the solver allocates a variable domain for it)."""
    limit = chip.events_per_pipe_pair
    if option is not None and option > limit:
        raise PassFailedException(
            f"ascend-modulo-schedule: num-stages must be in 1..{limit} (one event id per buffer "
            f"version; {chip.described} has {limit} per pipe pair), got {option}"
        )
    for loop in module.walk():
        if isinstance(loop, scf.ForOp) and option is None:
            stages = loop_num_stages(loop)
            if stages > limit:
                raise op_error(
                    loop, f"num_stages {stages} is more than the {limit} buffer versions {chip.described} "
                          f"can synchronise (one event id per version; at most {limit})"
                )


def loop_cycles(ii: int, length: int, trips: int) -> int:
    """Cycles of `trips` iterations of a schedule: one iteration's length, then one II
    for each further one (the prologue and epilogue are in the length)."""
    return length + ii * max(trips - 1, 0)


def _loop_attr(result: LoopResult) -> ascend.LoopAttr:
    """The `#ascend.loop` of `result`, with the solver's own bounds (the II was derived
    from those). A form written at its code's replayed timing may run below the model's
    bound (unseen seed 282 at 8 trips on the 950: the code's store -> load hand-off
    recurrence replays at 318 a pass, the model's at 337); the bounds are then capped at
    the II, and the remark says so (it was a verifier error)."""
    cap = min(result.mii, result.ii)
    return ascend.LoopAttr(result.ii, cap, {pipe: min(v, cap) for pipe, v in result.res_mii.items()},
                           min(result.rec_mii, cap), result.binding, result.status)


def _one_core_of_single_pipe_tasks(model: LoopModel) -> bool:
    """Whether every task of the loop is one op on one pipe and all run on one core: the
    estimates compare well there (bench random kernels). A MIX loop's pipelined length
    is no estimate of what its two cores run (bench/scheduler's flash_attn_fwd K/V loop,
    4 trips: 9376 cycles estimated, 7328 run; program order 7150 estimated, 8703 run)."""
    pipes = [t.solver_pipes for t in model.tasks]
    return (all(len(p) == 1 for p in pipes)
            and len({hardware.core_of_pipes(p) for p in pipes} - {"SCALAR"}) <= 1)


def program_order_result(model: LoopModel, pipelined: LoopResult) -> LoopResult | None:
    """The loop's program-order schedule (every task in stage 0, in body order per pipe,
    one version per buffer; scheduling/program_order.py) when its estimated cycles over
    the loop's trip count are fewer than the pipelined schedule's; None otherwise, and
    for a runtime trip count (the pipelined schedule wins as the count grows). Fill and
    drain matter at few trips: at one trip only the length counts, and a pipelined
    schedule whose stages stretch one iteration is slower there than program order
    (bench random kernels 4, 6, 10, 17). The II written is at least one past the last
    start (every task in stage 0); the estimate uses the II program order runs at."""
    trips = model.trip_count
    if trips is None or not _one_core_of_single_pipe_tasks(model):
        return None
    problem = model.problem()
    found = written_in_body_order(problem, len(model.tasks))
    if found is None:
        return None
    ii, written_ii, written, length = found
    if written_ii < pipelined.mii:
        # below the loop's proven lower bound (a carried dependence or a pipe's work per
        # iteration, which any code of the loop obeys): the estimate is wrong, not the
        # bound (random kernel 3687 of test_compile_random: 396 against 529)
        return None
    versions = {b.name: 1 for b in problem.buffers}
    body = len(model.tasks)
    if replays(problem, body):
        # both codes replayed (scheduling/realize.py) over the trip count, a stage-skewed
        # loop's prologue and epilogue included: the schedule's length is not what its
        # code runs (bench random kernels 4 and 17, one trip: 2380 and 1275 scheduled,
        # 2908 and 1635 run; program order 2489 and 1481; stage-skewed 120, 3 trips:
        # 910 + 2 x 368 scheduled, 2551 run, program order 1876)
        # the code `pipelined` is written as (`_as_run`'s forms: a stretched schedule laid
        # out at its solver II, one-pass code): random kernel 502 (2 trips) replayed the
        # unskewed schedule at 4667 cycles, its one-stage form ran 5027, program order 4869
        ours = written_cycles(problem, body, pipelined, trips)
        estimate = code_cycles(problem, body, written_ii, written, versions, trips, gather=False)
        how = "replayed"
    else:  # a loop the replay does not model (both cores, or a cube loop around a loop)
        ours = loop_cycles(pipelined.ii, max(pipelined.length, pipelined.ii), trips)
        estimate = loop_cycles(ii, length, trips)
        how = "estimated"
    barrier_sync = False
    if how == "replayed":
        # its hand-offs as pipe_barrier[<PIPE_ALL>]s (one issue cycle, where a set_flag waits
        # for its pipe and a wait_flag takes one more): faster where the code runs one op
        # at a time (single chains, bench random kernels 7 and 12: barrier-all ran 1540
        # and 2338 cycles, our flags 1557 and 2356)
        with_barriers = code_cycles(problem, body, written_ii, written, versions, trips,
                                    gather=False, barriers=True)
        barrier_sync = with_barriers < estimate
        estimate = min(estimate, with_barriers)
    if how == "replayed" and not sync_modelled(problem, body, written_ii, written, versions,
                                               gather=False):
        return None
    result = as_program_order(pipelined, written_ii, written, length, versions, barrier_sync=barrier_sync)
    if barrier_sync:
        result = barrier_synced_as_run(problem, body, result, CODE_SLACK_PERCENT)
    if how == "replayed" and not barrier_sync and model.model_flag_drains:
        # program order as its code runs, which is the code written (`program_order_as_run`):
        # the body's order over stages runs faster than one pass after the other (unseen
        # seed 54 on four_ids, 16 trips: program order replayed at 36972 cycles, the
        # pipelined schedule at 36000, which was written and ran 35887, where program order
        # as run replays at 26350); replayed only where the plain form does not win already
        as_run = program_order_as_run(problem, body, result, pipelined.mii, trips, CODE_SLACK_PERCENT)
        if as_run is not result and written_cycles(problem, body, as_run, trips, gather=False) > estimate:
            # its timed form is other code (the order the code runs in, pipes in one stage
            # each), which may replay slower over few trips than program order's own: 14
            # chains of 11 ops on 2x128 tiles, 2 trips, num_stages 4, on the 950 (4036
            # replayed against 4003; ran 4077 where program order's code ran 4043) and on
            # the 910B with 22 chains (6526 and 6487; ran 6586 and 6548)
            as_run = program_order_labelled(problem, body, result, trips, CODE_SLACK_PERCENT)
        result = as_run
        if not _program_order_wins(estimate, ours, trips):
            estimate = written_cycles(problem, body, result, trips, gather=False)
    if not _program_order_wins(estimate, ours, trips):
        return None
    than = "as fast as" if estimate == ours else "faster than"
    return replace(
        result, message=f"program order ({estimate} cycles {how} over {trips} trips at II {ii}"
                        f"{', its hand-offs pipe_barrier[<PIPE_ALL>]s' if barrier_sync else ''}) is {than} "
                        f"the pipelined schedule ({ours} cycles {how}, at II {pipelined.ii}, length {pipelined.length})"
                        + (written_as_run_note(result.ii) if result.ii != written_ii
                           else ""),
    )


def _program_order_wins(estimate: int, ours: int, trips: int) -> bool:
    """Whether program order's `estimate` beats the pipelined code's `ours` over `trips`.
    At one trip a tie goes to program order: nothing overlaps a next iteration, so the
    pipelined code's extra versions and flags buy nothing (never_slower's random kernel
    735, 2 chains of 2 ops: both replayed at 619, the pipelined code ran 629, program
    order 626). At more trips a tie keeps the pipelined schedule: where the two forms are
    the same code (an in-place vexp, softmax's loop) the replay ties and the schedule's
    own II is what is written and reported."""
    return estimate < ours or (estimate == ours and trips == 1)


def _kept_by_its_code(model: LoopModel, forms: WrittenForms, solved: LoopResult) -> LoopResult:
    """`solved`, or where its code runs slower than its II (by more than
    CODE_SLACK_PERCENT) another schedule at that II (`modulo.schedules_at`) whose code,
    as written, runs the known trips faster by more than that. With the count known at
    run time only, whose code the replay over a count does not model well (no rings of
    ids), on the steady II, and no more than RUNTIME_FILL_PERCENT slower at two trips: a
    lower steady II may come with a longer fill (unseen seed 2 on the 910B, 3 chains, run
    at 3 trips: the first-fit code ran 340 a pass against 367, and 1801 cycles against
    1331; replayed at two trips 1227 against 940)."""
    written = forms.written(solved)
    if written.ii * 100 <= solved.ii * (100 + CODE_SLACK_PERCENT):
        return solved
    problem, trips = model.problem(), model.trip_count

    def cost(result: LoopResult) -> tuple[int, int]:
        if trips is not None:
            return forms.cycles(result, trips), 0
        return forms.written(result).ii, forms.cycles(result, 2)

    best, least = solved, cost(solved)
    for other in schedules_at(problem, solved):
        spent = cost(other)
        if (spent[0] * 100 < least[0] * (100 - CODE_SLACK_PERCENT)
                and spent[1] * 100 <= least[1] * (100 + RUNTIME_FILL_PERCENT)):
            best, least = other, spent
    return best


@dataclass(frozen=True)
class UnrolledSolve:
    """One solve of an unrolled body: the problem the solver saw (retimed by port_order
    or not), its schedule of that problem, and the schedule of the body."""

    solved: LoopProblem
    raw: LoopResult
    result: LoopResult


def _renamed(result: LoopResult, solved_on: LoopProblem, problem: LoopProblem) -> LoopResult | None:
    """`result` (a schedule of `solved_on`) for `problem` when the two problems are equal,
    its buffers renamed to `problem`'s."""
    if structure_key(solved_on) != structure_key(problem):
        return None
    names = buffer_renaming(solved_on, problem)
    return replace(result, versions={names[b]: v for b, v in result.versions.items()})


def known_for(known: UnrolledSolve | None, problem: LoopProblem) -> LoopResult | None:
    """`known`'s schedule when it was solved on a problem equal to `problem`."""
    return None if known is None else _renamed(known.raw, known.solved, problem)


# an unrolled or remainder loop's problem, model and schedule (ModuloSchedulePass._unrolled)
Unrolled = tuple[LoopProblem, LoopModel, LoopResult, int]  # the last: the solver's II (ascend.solver_ii)


def _carried(known: Unrolled | None, problem: LoopProblem) -> LoopResult | None:
    """`known`'s schedule (of the same loop in the function's copy) for `problem` when the
    two problems are equal, its buffers renamed."""
    return None if known is None else _renamed(known[2], known[0], problem)


def _lower_bound(problem: LoopProblem, cap: int) -> int:
    """min(the solver's lower bound on the II of `problem`, `cap`) (0 when it has no
    schedule at all: the solve then says why); the structural scan stops at `cap`. Shared
    as a solve is (1 of 4 CPU s of a wide loop compiled again at other trips, solves shared)."""
    def bound() -> int:
        try:
            return ii_lower_bound(problem, cap)
        except SOLVER_ERRORS:
            return 0
    return solve_through(problem, {"lower_bound_cap": cap}, bound)


@dataclass(frozen=True)
class ModuloSchedulePass(ModulePass):
    name = "ascend-modulo-schedule"

    chip: str | None = None
    chip_file: str | None = None
    budget_ms: int | None = None
    rlimit: int | None = None
    search: str = "incremental"
    num_stages: int | None = None
    # skip the secondary objectives (fewest buffer bytes, shortest length)
    ii_only: bool = False
    # rlimit of the secondary objectives (unset: the solver's default, a small one)
    secondary_rlimit: int | None = None
    report_solve_time: bool = False
    # the largest unroll factor U (1, 2 or 4) a loop may get when one set point per
    # pipe per U iterations lowers its cost per iteration (1: never unroll)
    unroll: int = 4
    # reserve the cycles a pipe idles each iteration to publish a flag (LoopModel.flag_drains);
    # false gives the schedule of the pure resource model (a lower bound for benchmarks)
    flag_drains: bool = True

    def _budget(self) -> dict[str, Any]:
        """Budget keywords of schedule_loop / schedule_region. budget-ms is a wall-clock
        limit (results then depend on load); rlimit keeps them reproducible, and an unset
        rlimit leaves the solver's default."""
        budget: dict[str, Any] = {"time_ms": self.budget_ms}
        if self.rlimit is not None:
            budget["rlimit"] = self.rlimit
        return budget

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.search not in SEARCHES:
            raise PassFailedException(
                f"ascend-modulo-schedule: search must be one of {', '.join(SEARCHES)}, got '{self.search}'"
            )
        if self.num_stages is not None and self.num_stages < 1:
            raise PassFailedException("ascend-modulo-schedule: num-stages must be >= 1")
        if self.unroll not in UNROLL_FACTORS:
            raise PassFailedException(
                f"ascend-modulo-schedule: unroll must be one of {', '.join(map(str, UNROLL_FACTORS))}, got {self.unroll}")
        require_hivm_level(op, self.name)
        chip = module_chip(op, self.chip, self.chip_file)
        _check_stage_limits(op, self.num_stages, chip)
        annotate_latencies(op, chip, only_missing=True)
        for index, loop in loops_innermost_first(op):
            self._schedule_loop(loop, index, chip)
        for func_op in op.walk():
            if isinstance(func_op, func.FuncOp) and func_op.body.blocks:
                self._schedule_straight_line(func_op, chip)

    # ----- loops ---------------------------------------------------------------------

    def _schedule_loop(self, loop: scf.ForOp, index: int, chip: Chip) -> None:
        model = build_loop_model(loop, chip, scheduled_loop_cost, index, self.num_stages)
        model.model_flag_drains = self.flag_drains
        if not model.tasks:
            self._write_empty_loop(model)
            return
        forms = self._forms(model)
        solved = _kept_by_its_code(model, forms, self._solve_gathered(model, forms))
        # compared with program order as it will be written: its code's own form
        as_run = forms.written(solved)
        in_order = program_order_result(model, as_run)
        if in_order is not None:
            self._write_loop(model, in_order, solved.ii)
            return
        # the unroll factors are tried against the solver's II (trials solve the model,
        # their II is the model's too)
        factor, trial = self._unroll_factor(model, solved)
        if trial is None:
            self._write_not_unrolled(model, as_run, solved.ii)
            return
        # the unrolled loops solved and written as run on a copy of the function first:
        # U is taken where that code pays over a known trip count (_unroll_pays)
        roots = [b.root for b in model.buffers if isinstance(b.root, SSAValue)]
        planned = self._unrolled(model, *unrolled_copy(loop, factor, roots), factor, trial, chip, index)
        if not self._unroll_pays(model, as_run, factor, *planned):
            self._write_not_unrolled(model, as_run, solved.ii)
            return
        main, rest = unroll_loop(loop, factor, roots)
        written = self._unrolled(model, main, rest, factor, trial, chip, index, planned)
        for part in written:
            if part is not None:
                self._write_loop(part[1], part[2], part[3])

    def _unrolled(self, model: LoopModel, main: scf.ForOp, rest: scf.ForOp | None, factor: int,
                  trial: UnrolledSolve, chip: Chip, index: int, known: tuple[Unrolled, Unrolled | None] | None = None,
                  ) -> tuple[Unrolled, Unrolled | None]:
        """The schedules of the unrolled loop `main` (solved again on the loop the IR holds:
        its buffer copies, flag drains and capacity as every other pass sees them; the same
        problem as the trial's, as a rule, whose schedule and proof then carry over) and of
        the remainder loop `rest`, as their code runs. `known`: the same loops' schedules,
        taken over where their problems are equal (the function's copy of _unroll_pays)."""
        per_copy = model.num_stages // factor
        ascend.set_num_stages(main, per_copy)
        main_model = build_loop_model(main, chip, scheduled_loop_cost, index, per_copy)
        main_model.model_flag_drains = self.flag_drains
        problem = coalesced(main_model.problem(), factor, len(main_model.tasks))
        carried = _carried(known[0] if known else None, problem)
        if carried is not None and known is not None:
            main_result, main_solver_ii = carried, known[0][3]
        else:
            try:
                solved = self._solve_unrolled(main_model, problem, len(main_model.tasks), report=True,
                                              known=trial).result
            except PassFailedException:
                # the coalesced model has no schedule: the unrolled loop as it stands has one
                solved = self._solve(main_model, report=True)
            # replayed on its own dependences, as insert-sync sets its flags (three_ids 67: 574 coalesced, ran 794)
            main_result, main_solver_ii = self._as_run(main_model, main_model.problem(), solved, True), solved.ii
        if rest is None:
            return (problem, main_model, main_result, main_solver_ii), None
        rest_model = build_loop_model(rest, chip, scheduled_loop_cost, index, self.num_stages)
        rest_model.model_flag_drains = self.flag_drains
        rest_problem = rest_model.problem()
        carried = _carried(known[1] if known else None, rest_problem)
        if carried is not None and known is not None and known[1] is not None:
            rest_result, rest_solver_ii = carried, known[1][3]
        else:
            # in its code's own form, as a loop not unrolled is written: as solved, narrow seed 4137's
            # (910B, U = 4) was written at its stage-skewed II 216 and ran 2 and 3 trips 25 and 35 cycles slower
            solved = self._solve(rest_model)
            rest_result, rest_solver_ii = self._forms(rest_model).written(solved), solved.ii
            if rest_model.trip_count is None and rest_model.model_flag_drains and replays(rest_problem, len(rest_model.tasks)):
                rest_result = remainder_barriers(rest_problem, len(rest_model.tasks), rest_result, factor - 1,
                                                 CODE_SLACK_PERCENT) or rest_result
        return ((problem, main_model, main_result, main_solver_ii),
                (rest_problem, rest_model, rest_result, rest_solver_ii))

    def _forms(self, model: LoopModel) -> WrittenForms:
        """The loop's schedules as their code would be written, each found once."""
        return WrittenForms(lambda solved: self._as_run(model, model.problem(), self._unskewed(model, solved)), model)

    @staticmethod
    def _unroll_pays(model: LoopModel, as_run: LoopResult, factor: int, main: Unrolled,
                     rest: Unrolled | None) -> bool:
        """Whether the unrolled loops as they will be written (the main loop's schedule
        solved again on the coalesced body and kept as its code runs, the remainder loop's
        own) run the known trips in fewer cycles than the loop's own code, fill and drain
        included: a lower II per iteration need not pay over few trips (random kernel 204,
        3 trips: 1029 cycles against 885 not unrolled); the trial's schedule is not the code
        written (d9f235a). A runtime count: the II written per iteration lower by more than
        CODE_SLACK_PERCENT (2 chains on three_ids.toml: 953 a pass of two, ran 1112, against
        935, ran 938). True where the replay models either loop's code not."""
        trips = model.trip_count
        parts = [(main, trips // factor if trips is not None else 0)]
        if rest is not None and trips is not None:
            parts.append((rest, trips % factor))
        base = model.problem()
        if not replays(base, len(model.tasks)) or not all(replays(p, len(m.tasks)) for (p, m, _, _), _n in parts):
            return True
        main_ii = main[2].ii  # the II written on the main loop (Unrolled: problem, model, result, solver II)
        if trips is None:
            return main_ii * 100 < as_run.ii * factor * (100 - CODE_SLACK_PERCENT)
        unrolled = sum(written_cycles(m.problem(), len(m.tasks), r, n) for (_p, m, r, _), n in parts if n > 0)
        # and no higher II an iteration written (2 chains on the 950: 635 a pass of two, ran 1061, against 225)
        return unrolled < written_cycles(base, len(model.tasks), as_run, trips) and main_ii <= as_run.ii * factor

    @staticmethod
    def _as_run(model: LoopModel, problem: LoopProblem, result: LoopResult, unrolled: bool = False) -> LoopResult:
        """The schedule the loop's code keeps (scheduling/realize.py): `result` when its
        code runs at its II, else, where the code stays the same, the code's own timing
        (its steady-state II and starts), so the loop's II is what runs. Not with
        flag-drains=false: that option asks for the pure resource model. Where the code runs
        faster than the II: the stage-skewed form that keeps its stages, else its own timing
        as for an `unrolled` body, which goes there at once (its copies the code releases
        one by one: vecadd's U = 2 body, solved at 316, runs at 278)."""
        if not model.model_flag_drains:
            return result
        faster = unrolled  # an unrolled body goes to its code's own timing at once
        if both_cores(problem, len(model.tasks)):
            return ModuloSchedulePass._both_cores_as_run(model, problem, result)
        if not replays(problem, len(model.tasks)):
            return result
        run = realize(problem, len(model.tasks), result.ii, result.start, result.versions)
        if not faster and run.ii * 100 < result.ii * (100 - CODE_SLACK_PERCENT):
            skewed = skewed_schedule(problem, len(model.tasks), result, run, CODE_SLACK_PERCENT, model.trip_count)
            if skewed is not None:
                said = f"{result.message}; " if result.message else ""
                return replace(skewed[0], status="feasible" if result.status == "optimal" else result.status,
                               message=f"{said}the code of the II {result.ii} schedule runs at {skewed[1].ii} "
                                       f"cycles an iteration, its stages kept: that is the II written")
            # no form that keeps its stages: the code's own timing, as an unrolled body's
            # (unseen seed 593 on the 910B, 6 chains: IMS's II 512 ran at 467, now written
            # 467 and run at 462; four_ids 598: written 677, ran 613, now 598 and 598)
            faster = True
        if run.ii * 100 <= result.ii * (100 + CODE_SLACK_PERCENT) and not (
                faster and run.ii * 100 < result.ii * (100 - CODE_SLACK_PERCENT)):
            return result
        written, run = code_schedule_at_its_code(problem, len(model.tasks), result, run, model.trip_count,
                                                 CODE_SLACK_PERCENT)
        if written is not None and not ModuloSchedulePass._runs_as_written(model, problem, written):
            # the same order, but the new starts move its set points (flag_sets: a set
            # stands as late as its consumers' starts allow): other code, which ran
            # slower (unseen seed 15 on four_ids: the II 448 code ran 468, written so,
            # and the written code ran 502); the solver's code kept, at what it runs
            code_run = realize(problem, len(model.tasks), result.ii, result.start, result.versions,
                               trips=model.trip_count)
            if code_run.ii * 100 <= result.ii * (100 + CODE_SLACK_PERCENT):
                return labelled_at_its_code(problem, result, code_run, CODE_SLACK_PERCENT)
            written, run = stretched(problem, result, code_run.ii), code_run
        if written is None:
            # the code's own order (code_timing.py): the body's order would put a pipe
            # across a stage boundary (chains4x8)
            steady = (steady_schedule(problem, len(model.tasks), result, run, CODE_SLACK_PERCENT)
                      # no one-stage form: an iteration of the code longer than its II (20
                      # chains of 6 ops), written as the timing of that one-pass code
                      or one_pass_schedule(problem, len(model.tasks), result, run, CODE_SLACK_PERCENT))
            if steady is None or not ModuloSchedulePass._no_slower(model, problem, result, steady[0]):
                # the code's II with its rings of ids where the trip count is known (6
                # chains at 64 trips: 481 replayed without, 346 with, 346 ran)
                code_run = run if not model.trip_count else realize(
                    problem, len(model.tasks), result.ii, result.start, result.versions, trips=model.trip_count)
                if code_run.ii * 100 <= result.ii * (100 + CODE_SLACK_PERCENT):
                    return labelled_at_its_code(problem, result, code_run, CODE_SLACK_PERCENT)
                # the remark names the replay written (unseen seed 116 said 720, the ringless
                # replay, with 458 written)
                written, run = stretched(problem, result, code_run.ii), code_run
            else:
                written, run = steady
        return written_as_run(problem, len(model.tasks), result, written, run, CODE_SLACK_PERCENT, model.trip_count)

    @staticmethod
    def _runs_as_written(model: LoopModel, problem: LoopProblem, written: LoopResult) -> bool:
        """Whether the code of `written` (its own set points) runs at its II, within
        CODE_SLACK_PERCENT, with the loop's rings of ids where the trip count is known."""
        again = realize(problem, len(model.tasks), written.ii, written.start, written.versions, trips=model.trip_count)
        return again.ii * 100 <= written.ii * (100 + CODE_SLACK_PERCENT)

    @staticmethod
    def _no_slower(model: LoopModel, problem: LoopProblem, result: LoopResult, written: LoopResult) -> bool:
        """Whether the code of `written` (a one-pass form: other code, its order and set
        points new) runs the loop's trips no slower than the code of `result`, fill and
        drain included (random kernel 26, 4 trips: 3988 -> 4167 cycles otherwise); true
        for any other form and where the trip count is not known."""
        trips, body = model.trip_count, len(model.tasks)
        if not written.stats.get("one_pass") or trips is None:
            return True
        return (code_cycles(problem, body, written.ii, written.start, written.versions, trips, one_pass=True)
                <= code_cycles(problem, body, result.ii, result.start, result.versions, trips))

    @staticmethod
    def _unskewed(model: LoopModel, result: LoopResult) -> LoopResult:
        """A stage-skewed vector-core schedule as the one-stage code of one iteration in
        its start order, written at the II that code runs at (scheduling/code_timing.py),
        when one is found: the replay models that code, not the skewed one."""
        problem = model.problem()
        body = len(model.tasks)
        if (not model.model_flag_drains or not replays(problem, body)
                or not any(kernel_shift(problem, body, result.ii, result.start))):
            return result
        found = unskewed(problem, body, result, CODE_SLACK_PERCENT)
        if found is None or not ModuloSchedulePass._one_stage_pays(model, problem, result, found[0]):
            return result
        written = found[0]
        said = f"{result.message}; " if result.message else ""
        return replace(written, status="feasible" if written.status == "optimal" else written.status,
                       message=f"{said}the stage-skewed II {result.ii} schedule written as one stage per pipe, "
                               f"at the II its code runs at ({written.ii})")

    @staticmethod
    def _one_stage_pays(model: LoopModel, problem: LoopProblem, skewed: LoopResult, one_stage: LoopResult) -> bool:
        """Whether the one-stage form of a stage-skewed schedule is taken: its code no
        slower than the skewed code's. Over the loop's trips, fill and drain included,
        where the count is known: the steady IIs leave out the skewed code's prologue and
        epilogue, and a short loop never reaches a steady state (unseen seed 184, 3
        chains, 2 trips, on the 950: the one-stage code replays at 201 a pass for eight
        passes and 290 from the tenth, the skewed code at 283; the skewed code was kept
        and ran 814 cycles, the one-stage code 661). And the other way: seed 100, 7
        chains, 17 trips, on the 950: on the steady states the one-stage code looked no
        slower and ran at 367 a pass, 6540 cycles; the skewed code runs at 253, 4929.
        Weighed so since the replay gives the prologue and epilogue insert-sync's
        straight-line sets and waits (with a set after each load, seeds 14, 99, 164 and
        random 752 ran 4-14% slower so). The skewed code counts no faster than its trips at
        the period it settles at: seed 65 on the 910B, 17 trips, replays its skewed code at
        237 a pass over the trips, where it runs at 326 (the settled replay says 352), and
        took it: 5790 cycles, the one-stage code 5196.
        Within `CODE_SLACK_PERCENT` the one-stage code is taken, the surer of the two to
        run as replayed (chains 4 x 16, 8 trips: the skewed code replays at 8038 cycles,
        910 a pass, and runs 8621, 1016 a pass; its one-stage code 8052, and runs at 910).
        With the count known only at run time, on the steady states (layernorm's skewed
        969 replays at 972 and runs at about 1009, its one-stage code at 1227)."""
        body, trips = len(model.tasks), model.trip_count
        if trips is None:
            return one_stage.ii <= realize(problem, body, skewed.ii, skewed.start, skewed.versions).ii
        one = code_cycles(problem, body, one_stage.ii, one_stage.start, one_stage.versions, trips)
        ii, start = code_form(skewed)
        replayed = code_cycles(problem, body, ii, start, skewed.versions, trips)
        # no fewer than `trips` passes at the period its code settles at: a short replay
        # of the skewed code runs in the HBM port's phase its fill left, which the code
        # need not (seed 65 above); the one-stage code has no fill to set a phase
        settled = trips * realize(problem, body, ii, start, skewed.versions, trips=trips).ii
        return one * 100 <= max(replayed, settled) * (100 + CODE_SLACK_PERCENT)

    def _solve_gathered(self, model: LoopModel, forms: WrittenForms) -> LoopResult:
        """The loop's schedule with one set point per publishing pipe, every consumer of
        the pipe's releases after all of them (scheduling/set_points.py): the sets
        insert-sync gathers then cost the one drain per pipe reserved. The plain model's
        schedule when it keeps those points already or the gathered one has none."""
        plain = model.problem()
        large = len(model.tasks) > GATHER_MAX_TASKS
        # a large loop's plain schedule is chosen on its II and starts before its bytes
        # and length are optimised, which then happens only where it is kept (4 chains
        # of 16 ops: 1.5 of 5 CPU s went to a plain schedule the gathered one replaced)
        deferred = large and not self.ii_only
        # as the model's own problem: its remark too
        # only a deferred solve is resumed: the list keeps its search (its z3 context) alive
        resume: list[Callable[[], LoopResult]] = []
        result = self._solve(model, plain, report=not deferred, secondary=not deferred,
                             resume=resume if deferred else None)

        def plain_result() -> LoopResult:
            return self._with_secondary(model, plain, result, resume) if deferred else result

        drained = frozenset(model.flag_drains()) if model.model_flag_drains else frozenset()
        problem = gathered(plain, len(model.tasks), drained)
        if problem is plain or keeps_points(problem, len(plain.tasks), result.ii, result.start, result.versions):
            return plain_result()
        if large and code_loses_little(forms, result):
            return plain_result()
        try:
            gathered_result = self._solve(model, problem, report=True,
                                          rlimit=LARGE_GATHERED_RLIMIT if large else GATHERED_RLIMIT)
        except PassFailedException:
            return plain_result()
        if plain_code_wins(forms, gathered_result, result, large, CODE_SLACK_PERCENT):
            return plain_result()
        return gathered_result

    def _with_secondary(self, model: LoopModel, plain: LoopProblem, first: LoopResult,
                        resume: list[Callable[[], LoopResult]]) -> LoopResult:
        """The plain schedule `first` (solved for its II only) with its bytes and length
        optimised, as one solve would give it: going on from its II search (`resume`,
        schedule_loop's); where that is not at hand (a solve the test suite's cache
        answered), its II search carried over where it settled the II without the
        solver, the whole solve again otherwise. Solving again cost as much as the
        first solve: 19 of 40 CPU s on unseen seed 563 (four_ids.toml, 79 tasks)."""
        if resume:
            return self._solve(model, plain, report=True, solve=resume[0])
        settled = first.status == "optimal" and not first.stats.get("z3_checks")  # every probe is a check
        return self._solve(model, plain, report=True, known=first) if settled else self._solve(model, plain, report=True)

    @staticmethod
    def _both_cores_as_run(model: LoopModel, problem: LoopProblem, result: LoopResult) -> LoopResult:
        """A loop of both cores (`realize.both_cores`): `result`'s code as solved, written at
        the II its replay over the loop's trips gives where that is slower (`stretched`).
        The code is not rewritten to the replayed timing: the replay leaves out the cores'
        sync_block hand-offs, and code written at it ran 4-20% slower (`replays`). Its
        II is close to what runs, where the solver's is not: on unseen_cube's flash
        attention kernels of 7 and 17 key blocks (seeds 0-79, 300-339, 400-499) the plain
        model's II 295 ran at 466 (seed 312, replayed 466), 1053 at 1113 (429, 1112),
        1660 at 1751 (456, 1750), and flash_attention_dyn's 1400 at 1459 (1458)."""
        ii, start = code_form(result)
        run = realize(problem, len(model.tasks), ii, start, result.versions, trips=model.trip_count)
        if run.ii * 100 <= result.ii * (100 + CODE_SLACK_PERCENT):
            return result
        said = f"{result.message}; " if result.message else ""
        return replace(stretched(problem, result, run.ii), status="feasible" if result.status == "optimal" else result.status,
                       message=f"{said}the code of the II {result.ii} schedule runs at {run.ii} cycles an iteration "
                               f"as replayed (its cores' hand-offs left out): that is the II written")

    def _solve(self, model: LoopModel, problem: LoopProblem | None = None, report: bool = False,
               trial: bool = False, rlimit: int | None = None, secondary: bool = True,
               resume: list[Callable[[], LoopResult]] | None = None, solve: Callable[[], LoopResult] | None = None,
               **search: Any) -> LoopResult:
        """One solve of `problem` (the model's own by default). A trial (a candidate
        unroll factor) decides the II only, within TRIAL_RLIMIT; `search`: schedule_loop's
        `known`/`ii_below`; `rlimit`: the budget when the rlimit option leaves it unset;
        `resume`: schedule_loop's; `solve`: what gives the result (a resumed solve)
        in place of schedule_loop."""
        start_time = time.perf_counter()
        options: dict[str, Any] = {"optimize_secondary": secondary and not (self.ii_only or trial), **search}
        budget = self._budget()
        if rlimit is not None and self.rlimit is None:
            budget["rlimit"] = rlimit
        if self.secondary_rlimit is not None:
            options["secondary_rlimit"] = self.secondary_rlimit
        if trial:
            budget["rlimit"] = min(budget.get("rlimit") or TRIAL_RLIMIT, TRIAL_RLIMIT)
        posed = problem or model.problem()
        options.update(search=self.search, **budget)
        try:
            # the test suite's cache (one solve of a loop per run) when it is open
            result = solve_through(posed, options, solve or (lambda: schedule_loop(posed, **options, resume=resume)))
        except SOLVER_ERRORS as e:
            raise op_error(model.loop, f"cannot schedule loop {model.name}: {e}") from None
        measured_ms = (time.perf_counter() - start_time) * 1000
        if self.report_solve_time and (problem is None or report):
            solve_ms = result.stats.get("solve_ms", measured_ms)
            emit_remark(model.loop, f"loop {model.name}: II = {result.ii} ({result.status}) solved in {solve_ms:.0f} ms")
        return result

    def _solve_unrolled(self, model: LoopModel, problem: LoopProblem, body_tasks: int, report: bool = False,
                        trial: bool = False, ii_below: int | None = None,
                        known: UnrolledSolve | None = None) -> UnrolledSolve:
        """The schedule of an unrolled body (its first `body_tasks` tasks; the flag drains
        after them), its consumers released together in pipe order (scheduling/unroll.py's
        port_order) when that applies. `known`: an earlier solve of the same problem (the
        trial of this factor), whose schedule and proof carry over when the problem is
        equal; `ii_below`: a trial wants only an II below it."""
        ordered = port_order(problem, body_tasks)
        if ordered is not None:
            retimed, moved = ordered
            raw = self._solve(model, retimed, report, trial, ii_below=ii_below, known=known_for(known, retimed))
            result = from_retimed(problem, raw, moved)
            if result is not None:
                return UnrolledSolve(retimed, raw, result)
        raw = self._solve(model, problem, report, trial, ii_below=ii_below, known=known_for(known, problem))
        return UnrolledSolve(problem, raw, raw)

    def _unroll_factor(self, model: LoopModel, result: LoopResult) -> tuple[int, UnrolledSolve | None]:
        """The U of UNROLL_FACTORS (at most the `unroll` option) whose unrolled body has
        the lowest II / U, one II-only solve per U that can win; ties keep the smaller U
        (scheduling/unroll.py). A U whose lower bound on the II cannot beat the best so
        far is not solved, and a solve stops at the first II that would not beat it.
        Returns U and the chosen trial (None for U = 1)."""
        best_ii, best_u, best = result.ii, 1, None
        base: LoopProblem | None = None
        for u in UNROLL_FACTORS[1:]:
            if u > self.unroll or u > model.num_stages or why_not_unrollable(model.loop, u) is not None:
                break
            base = base or model.problem()
            remainder = model.trip_count is None or model.trip_count % u != 0
            reserved: dict[str, int] = {}
            for buf in model.buffers if remainder else ():
                reserved[buf.scope] = reserved.get(buf.scope, 0) + buf.bytes
            unrolled = unrolled_problem(base, u, len(model.tasks), reserved)
            cut = cut_off(u, best_ii, best_u)
            if unrolled is None or _lower_bound(unrolled, cut) >= cut:
                continue
            try:
                trial = self._solve_unrolled(model, unrolled, u * len(model.tasks), trial=True, ii_below=cut)
            except PassFailedException:
                continue  # no schedule unrolled (e.g. the copies' buffers do not fit)
            if better(trial.result.ii, u, best_ii, best_u):
                best_ii, best_u, best = trial.result.ii, u, trial
        return best_u, best

    def _write_loop(self, model: LoopModel, result: LoopResult, solver_ii: int | None = None) -> None:
        """`solver_ii`: the II the solver chose for the loop's model, where `result` is
        another form of it (its code's replayed timing, program order)."""
        loop = model.loop
        if model.model_flag_drains and replays(problem := model.problem(), len(model.tasks)):
            result = settled_from_its_prologue(problem, len(model.tasks), result, model.trip_count is None, CODE_SLACK_PERCENT)
        ii, mii, status, bound = result.ii, result.mii, result.status, result.binding
        ascend.set_loop(loop, _loop_attr(result))
        length = 0
        for i, task in enumerate(model.tasks):
            start, stage = result.start[i], result.stage[i]
            ascend.set_task(task.op, task.info.latency, task.info.ii, stage, start)
            length = max(length, start + task.info.latency)
        for buf in model.buffers:
            ascend.set_versions(buf.root.owner, result.versions.get(buf.name, 1))  # type: ignore[arg-type]
        self._write_loop_cost(model, Cost(max(length, ii), ii))
        # last, so the loop's other attributes keep their place in its dictionary
        ascend.set_drains(loop, model.drain_reservations(result.start))
        if result.stats.get("barrier_sync"):
            ascend.set_barrier_sync(loop)
        if result.stats.get("one_pass"):
            ascend.set_one_pass(loop)
        if solver_ii is not None and solver_ii != ii:
            ascend.set_solver_ii(loop, solver_ii)
        if result.stats.get("code_ii"):
            ascend.set_code_ii(loop, result.stats["code_ii"])
        if status == "program-order":
            emit_remark(loop, f"loop {model.name}: {result.message}")
        elif status != "optimal":
            message = result.message
            if ii < mii:
                message = (f"{message}; " if message else "") + (
                    f"its code runs below the model's MII ({mii}), whose dependence latencies are longer "
                    f"than the code's hand-offs: the loop's bounds are written capped at {ii}")
            emit_remark(
                loop,
                f"loop {model.name}: II = {ii} is not proven optimal"
                f" (status {status}, MII = {mii}, binding {bound})"
                + (f": {message}" if message else ""),
            )
        elif secondary_note(result):
            emit_remark(loop, f"loop {model.name}: II = {ii} is optimal; {secondary_note(result)}")

    def _write_not_unrolled(self, model: LoopModel, written: LoopResult, solver_ii: int) -> None:
        """The loop's pipelined schedule `written`, and for a count known at run time only
        the program-order schedule of its first counts where that runs them faster, or
        of every count (scheduling/small_trips.py)."""
        found = throughout = None
        if (model.trip_count is None and model.model_flag_drains
                and all(hardware.core_of_pipes(t.solver_pipes) != "CUBE" for t in model.tasks)):
            found, throughout = weigh_program_order(model.problem(), len(model.tasks), written, CODE_SLACK_PERCENT)
        self._write_loop(model, throughout or written, solver_ii)
        if found is not None and throughout is None:
            self._write_small_trips(model, found)

    @staticmethod
    def _write_small_trips(model: LoopModel, found: Below) -> None:
        """The program-order schedule of the first counts of a loop of a runtime count."""
        below, in_order, (theirs, ours) = found
        one_version = all(v == 1 for v in in_order.versions.values())
        ascend.set_small_trips(model.loop, below, _loop_attr(in_order), in_order.start[:len(model.tasks)], one_version)
        emit_remark(model.loop, f"loop {model.name}: at most {below} trips (a count known at run time) run in "
                                f"program order{', one version of each buffer,' if one_version else ','} replayed "
                                f"at {theirs} cycles against the pipelined loop's {ours}")

    def _write_empty_loop(self, model: LoopModel) -> None:
        """A loop without pipe work (only index arithmetic): one scalar cycle a step."""
        ascend.set_loop(model.loop, ascend.LoopAttr(1, 1, {}, 0, "none", "optimal"))
        self._write_loop_cost(model, Cost(1, 1))

    @staticmethod
    def _write_loop_cost(model: LoopModel, body: Cost) -> None:
        """The loop as one task of its parent: the serial-loop cost of its iterations.
        Its slot is added when the parent (loop or straight-line code) is scheduled."""
        whole = serial_loop(body, model.trip_count if model.trip_count is not None else 1)
        ascend.set_task(model.loop, max(whole.latency, whole.ii, 1), max(whole.ii, 1))

    # ----- straight-line code ------------------------------------------------------------

    def _schedule_straight_line(self, func_op: func.FuncOp, chip: Chip) -> None:
        """Top-level tasks of a function (loops as single tasks) for minimal makespan."""
        block = func_op.body.blocks.first
        assert block is not None
        built = straight_line_problem(block, chip)
        if built is None:
            return
        tasks, problem = built
        try:
            result = schedule_region(list(problem.tasks), list(problem.deps), list(problem.conflicts), **self._budget())
        except SOLVER_ERRORS as e:
            raise op_error(func_op, f"cannot schedule the straight-line code: {e}") from None
        if result.status != "optimal":
            emit_remark(
                func_op,
                f"straight-line code of @{func_op.sym_name.data}: makespan"
                f" {result.makespan} is not proven minimal"
                f" (status {result.status})",
            )
        for i, task in enumerate(tasks):
            ascend.set_task(task.op, task.info.latency, task.info.ii, 0, result.start[i])
