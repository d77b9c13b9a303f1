"""`ascend-verify-sync`: an independent static check of the synchronisation of hivm IR.

Shares no code with the passes that insert sync (it uses only the alias analysis). It
executes the kernel's control structure symbolically: every `scf.for` is unrolled with
concrete values of its loop variable (all iterations up to 16; beyond that 12 + trips
mod 12, which keeps every version `iv mod k` for k <= 4 in its phase and ends with
the same flags pending), each `scf.if` both ways (per static if, up to 64 combinations).
Each run yields the issue order of one core group; over it, vector clocks per
(core, pipe) follow the hardware's rules (DESIGN.md section 8): an op is ordered after
another only through pipe_barrier, set/wait_flag, sync_block_set/wait, or when both are
on one pipe of one core that keeps dependent ops in order on the chip (`chips.needs_barrier`:
S and mmadL1 -> mmadL1 everywhere, V on the Ascend 950). The checks, each a located error:

* every pair of accesses of one core to overlapping bytes (one a write) is ordered;
* every wait_flag / sync_block_wait is matched by an earlier set (else: deadlock);
* a flag is never set again before the wait of its previous set is ordered before the
  new set (two live flags on one event id);
* no flag is left set at the kernel's exit, and every cross-core set is waited for (a
  cross-core flag set twice but waited once is unbalanced);
* every event id lies within the chip's `events_per_pipe_pair` (options `chip` /
  `chip-file`, else the module's `hacc.target`) and every cross-core flag id within the
  hardware's; a computed id (`i mod 16`) is bounded over its loops' whole range, not
  only the unrolled iterations (`_id_range_errors`).

A kernel too large to unroll within the budget is reported as a remark, not as verified.

The functions of a split MIX kernel run side by side, paired: a loop or `scf.if` of one
that is the same computation over the kernel's arguments as one of the other
(`analysis.same_in_run.run_key`) takes the same trip count or branch in a run, and the
later function's arguments stand for the first's. Every `scf.if` is run both ways, and
the runtime loops each branch combination reaches get their covering counts.

Loops whose trip count is known only at run time (`scf.for` with a runtime bound) are
checked for every trip count by a finite set of them (`covering_trip_counts`): the loop
variable of iteration k is `lb + k * step` over the symbols lb and step stand for, so
event ids and buffer versions `((iv - lb) / step) mod V` evaluate exactly and footprints
stay symbolic in the kernel's arguments. What the loop does to flags and buffers is
periodic in k with period P (the lcm of the loop's `mod` divisors, its buffer versions
and rotating event ids) once past its first D iterations (D = its pipeline stages), so
every trip count N >= D + P behaves like the one in [D + P, D + 2P) congruent to it mod
P: checking every N in [0, D + 2P) checks them all; a trip count the loop cannot have
(below the static lower bound of its upper bound, or above its static upper bound:
`trip_count_bounds`) is left out. Each run gives a runtime-bounded loop one trip count
for all its runs; a loop nested in another may run a different number of times in each of
its parent's iterations (a per-row valid length, a causal loop), so further runs give it
two different counts a, b of its covering set in turn (a, b, a, ...: a parent with
runtime bounds runs twice where its covering set allows), for every ordered pair, so
both a -> b and b -> a occur between consecutive runs: every hazard between two
consecutive runs of the inner loop, whatever their two counts, is checked, and each run
with any count against the code around it. That pairs cover every sequence of counts is
proven per kernel (docs/runtime-shapes.md, "Sequences of trip counts"): at the end of
each pass (a run of the loop and what follows it up to its next run) `verify_sync_carry.Carry` measures
how many passes back the part of the state a later step can still tell apart was made;
0 means every check depends on two consecutive counts at most; k > 0 makes verify-sync
run every sequence of k + 2 counts too (`_longer_sequences`). Groups of nested loops
under one parent (`_sibling_clusters`) vary together: a pass's count is the tuple of
their counts. A varying loop in a varying loop varies jointly with it, as do clusters
under different parents (`_joint_clusters`): each level of varying loops takes its own
sequence, a pass begins at every run of any level, and the age is counted per level
(`Carry.lengths`: how many consecutive runs of each level a pass's checks can depend
on; docs/runtime-shapes.md, "Varying loops in varying loops"). Over MAX_TRIP_RUNS the
kernel is not verified (a remark naming the loops). A nested loop whose bounds are the
same in every iteration around it (`_count_fixed_in_run`) does not vary: one covering
count per run (docs/runtime-shapes.md, "Loops whose count is fixed in a run").
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from itertools import product
from math import lcm, prod
from typing import TypeVar

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass

from ascend_mlir import hardware
from ascend_mlir.analysis.aliasing import Affine
from ascend_mlir.analysis.latency_model import constant_int
from ascend_mlir.analysis.size_bounds import trip_count_bounds
from ascend_mlir.analysis.value_bounds import affine_range
from ascend_mlir.analysis.views import affine_of, symbol_ranges
from ascend_mlir.analysis.hardware_checks import require_hivm_level
from ascend_mlir.analysis.kernel_layout import sides_run, split_pairs, vector_core_count
from ascend_mlir.analysis.same_in_run import run_key
from ascend_mlir.chips import Chip, ChipError, resolve_chip
from ascend_mlir.diagnostics import emit_remark, op_error
from ascend_mlir.transforms.verify_sync_carry import Carry, StaticConflicts, static_accesses
from ascend_mlir.transforms.verify_sync_engine import (
    Checker, OpFacts, RunMemo, Step, iteration_names, op_facts, op_where, run_streams,
)
from ascend_mlir.dialects import hivm
from ascend_mlir.dialects.ascend import task_of

EVENT_BUDGET = 200_000
MAX_PATHS = 64
MAX_TRIP_RUNS = 4096  # runs over the trip counts of runtime-bounded loops (x if-paths)


class _TooLarge(Exception):
    pass


class _OverBudget(Exception):
    """More runs than MAX_TRIP_RUNS for some loops: the kernel is not verified (a remark
    saying why, never a pass)."""


# ----------------------------------------------------------------------------- the unrolled run


def _trip_values(forms: tuple[Affine, Affine, Affine], env: dict[Hashable, int | Affine]) -> list[int | Affine] | None:
    """The loop variable's values when a loop's bounds (`forms`: lb, ub and step as
    affine forms) are constants under `env`, else None."""
    bounds = [f.bind(env) for f in forms]
    if not all(b.is_constant for b in bounds):
        return None
    lb, ub, step = (b.const for b in bounds)
    if step <= 0:
        return None
    trips = max(0, -(-(ub - lb) // step))
    if trips > 16:
        trips = 12 + trips % 12
    return [lb + k * step for k in range(trips)]


def _symbolic_iterations(forms: tuple[Affine, Affine, Affine], env: dict[Hashable, int | Affine],
                         trips: int, tag: tuple) -> list[int | Affine]:
    """The loop variable of iterations 0..trips-1 of a loop with runtime bounds (`forms`:
    lb, ub and step as affine forms): `lb + k * step`, symbolic where lb/step are (a
    non-constant step: k copies of it), their values made in a loop named by its
    iterations in `tag` (`iteration_names`)."""
    lb = forms[0].bind(env, iteration_names(forms[0].symbols(), tag))
    step = forms[2].bind(env, iteration_names(forms[2].symbols(), tag))
    values: list[int | Affine] = []
    for k in range(trips):
        value = lb + step.scale(k)
        values.append(value.const if value.is_constant else value)
    return values


def _lcm_of_divisors(loop: scf.ForOp) -> int:
    """The period of what a loop's iterations do to flags and buffers: the lcm of the
    constant divisors of every `remui`/`remsi` in it (buffer versions, rotating event
    ids) and of its buffers' version counts."""
    period = 1
    for op in loop.walk():
        if op.name in ("arith.remui", "arith.remsi") and len(op.operands) == 2:
            divisor = constant_int(op.operands[1])
            if divisor is not None and divisor > 0:
                period = lcm(period, divisor)
    return period


def _covering_parts(loop: scf.ForOp) -> tuple[int, int, int, int | None]:
    """(D, P, fewest, most) of a runtime-bounded loop: its pipeline depth, the period of
    what its iterations do to flags and buffers, its trip-count bounds."""
    stages = [t.stage for t in (task_of(op) for op in loop.walk()) if t is not None and t.stage is not None]
    fewest, most = trip_count_bounds(loop)
    return 1 + max(stages, default=0), _lcm_of_divisors(loop), fewest, most


def covering_trip_counts(loop: scf.ForOp) -> range:
    """Trip counts whose checks cover every trip count of a runtime-bounded loop (see
    the module docstring): [0, D + 2P), cut to the trip counts the loop can have
    (`trip_count_bounds`): every feasible count below D + P is checked itself, and a
    feasible N >= D + P is covered by the one congruent to it in [D + P, D + 2P), which
    is at most N and so feasible when N's upper bound allows N."""
    return _covering([loop])


class _FunctionShape:
    """What every run of one function reads of it alike (the IR does not change while it
    is checked): the cores it runs on, its sub-block index values, and per block its ops
    as the runner meets them (loops, ifs, pipe ops with the cores that issue them), each
    loop's bounds as affine forms."""

    def __init__(self, func_op: func.FuncOp, vector_cores: tuple[str, ...]):
        self.vector_cores = vector_cores
        self.cores = _function_cores(func_op, vector_cores)
        # a MIX kernel runs its vector code on two vector cores, told apart by
        # get_sub_block_idx
        self.sub_block = [op.result for op in func_op.walk() if isinstance(op, hivm.GetSubBlockIdxOp)]
        self._blocks: dict[Block, list[tuple[Operation, tuple[str, ...] | None, OpFacts | None]]] = {}
        self._bounds: dict[scf.ForOp, tuple[Affine, Affine, Affine]] = {}

    def ops(self, block: Block) -> list[tuple[Operation, tuple[str, ...] | None, OpFacts | None]]:
        """The loops, ifs (None, None) and pipe ops (the cores issuing them, their facts)
        of `block`."""
        found = self._blocks.get(block)
        if found is None:
            found = self._blocks[block] = [
                (op, self.cores_of(op), op_facts(op)) if isinstance(op, hivm.HivmPipeOp) else (op, None, None)
                for op in block.ops if isinstance(op, scf.ForOp | scf.IfOp | hivm.HivmPipeOp)
            ]
        return found

    def bounds(self, loop: scf.ForOp) -> tuple[Affine, Affine, Affine]:
        found = self._bounds.get(loop)
        if found is None:
            found = self._bounds[loop] = (affine_of(loop.lb), affine_of(loop.ub), affine_of(loop.step))
        return found

    def cores_of(self, op: hivm.HivmPipeOp) -> tuple[str, ...]:
        core = op.core_type()
        if core == "SCALAR":
            return tuple(sorted(self.cores))
        if core == "VECTOR":
            return self.vector_cores
        return (core,)


class _Runner:
    def __init__(self, func_op: func.FuncOp, choices: dict[Operation, int], vector_cores: tuple[str, ...],
                 trips: dict[Operation, int | tuple[int, ...]] | None = None,
                 arguments: dict[Hashable, int | Affine] | None = None, shape: _FunctionShape | None = None,
                 level_ids: dict[Operation, Hashable] | None = None):
        self.func_op = func_op
        self.arguments = arguments or {}  # the function's arguments as another's (a split kernel's)
        self.choices = choices  # scf.if -> region index
        # runtime-bounded scf.for -> its trip count in this run, or the counts its parent
        # loop's iterations take in turn
        self.trips = trips or {}
        # the passes of the sequences of trip counts begun so far (one at each run of a
        # varying loop), and per level of the loops whose counts vary from run to run (a
        # tuple in `trips`; a level is named by the nearest enclosing such loop, None for
        # the outermost, through `level_ids`, which gives the paired loops of a split
        # kernel's halves one name): how many of its runs began and the enclosing
        # iterations of the last (a level's loops met twice in one parent iteration run
        # once more, with the same count); per pass, how many runs of each level began up
        # to its start (its own included) and up to its end
        self.runs_begun = 0
        self.level_ids = level_ids or {}
        self.level_runs: dict[Hashable, int] = {}
        self.last_run_tag: dict[Hashable, tuple] = {}
        self.pass_starts: list[dict[Hashable, int]] = [{}]
        self.pass_ends: list[dict[Hashable, int]] = []
        self.dynamic_loops: list[Operation] = []
        self.ifs: list[Operation] = []
        self.steps: list[Step] = []
        self.vector_cores = vector_cores
        self.shape = shape if shape is not None else _FunctionShape(func_op, vector_cores)

    def run(self) -> list[Step]:
        self._block(self.func_op.body.block, dict(self.arguments), ())
        self.pass_ends.append(dict(self.level_runs))
        return self.steps

    def _block(self, block: Block, env: dict[Hashable, int | Affine], tag: tuple) -> None:
        core_envs: dict[str, dict[Hashable, int | Affine]] = {}  # this iteration's per core
        for op, cores, facts in self.shape.ops(block):
            if cores is not None:
                for core in cores:
                    core_env = core_envs.get(core)
                    if core_env is None:
                        core_env = core_envs[core] = self._core_env(env, core)
                    self.steps.append(Step(op, core, core_env, tag, self.runs_begun, facts))
                if len(self.steps) > EVENT_BUDGET:
                    raise _TooLarge()
            elif isinstance(op, scf.ForOp):
                self._for(op, env, tag)
            else:
                if op not in self.ifs:
                    self.ifs.append(op)
                index = self.choices.get(op, 0)
                if index < len(op.regions) and op.regions[index].blocks:
                    self._block(op.regions[index].block, env, tag)

    def _for(self, op: scf.ForOp, env: dict[Hashable, int | Affine], tag: tuple) -> None:
        values: list[int | Affine] | None = _trip_values(self.shape.bounds(op), env)
        if values is None:  # runtime bounds: the trip count of this run
            if op not in self.dynamic_loops:
                self.dynamic_loops.append(op)
            values = _symbolic_iterations(self.shape.bounds(op), env, self._trip_count(op, tag), tag)
        iv = op.body.block.args[0]
        for k, v in enumerate(values):
            inner = dict(env)
            inner[iv] = v
            self._block(op.body.block, inner, (*tag, k))

    def _trip_count(self, loop: scf.ForOp, tag: tuple) -> int:
        """This run's trip count of a runtime-bounded loop: one count for every run of
        it, or a sequence taken in turn by the runs of its level (the varying loops with
        the same nearest enclosing varying loop: run r takes trips[r mod len]; the runs
        are counted over the whole function, so the sequence goes on across the
        iterations of an outer loop around its parent and across the runs of the
        enclosing varying loop; the loops of one level met in one iteration of their
        parent are one run of it)."""
        trips = self.trips.get(loop, 3)
        if isinstance(trips, int):
            return trips
        level = self._level(self._enclosing_varying(loop))
        if tag != self.last_run_tag.get(level):
            # a run of a level begins a pass (docs/runtime-shapes.md, "Varying loops in
            # varying loops"): each pass holds one run start
            self.last_run_tag[level] = tag
            self.pass_ends.append(dict(self.level_runs))
            self.level_runs[level] = self.level_runs.get(level, 0) + 1
            self.runs_begun += 1
            self.pass_starts.append(dict(self.level_runs))
        return trips[(self.level_runs[level] - 1) % len(trips)]

    def _enclosing_varying(self, loop: Operation) -> Operation | None:
        return next((p for p in _parent_loops(loop) if isinstance(self.trips.get(p), tuple)), None)

    def _level(self, enclosing: Operation | None) -> Hashable:
        return None if enclosing is None else self.level_ids.get(enclosing, enclosing)

    def _core_env(self, env: dict[Hashable, int | Affine], core: str) -> dict[Hashable, int | Affine]:
        if core not in self.vector_cores or not self.shape.sub_block:
            return env
        return {**env, **{v: self.vector_cores.index(core) for v in self.shape.sub_block}}

    def _cores_of(self, op: hivm.HivmPipeOp) -> list[str]:
        return list(self.shape.cores_of(op))


def _vector_cores(funcs: list[func.FuncOp]) -> tuple[str, ...]:
    """The vector cores that run the kernel's vector side (analysis.kernel_layout, the
    simulator's model too)."""
    return tuple(f"VEC{i}" for i in range(vector_core_count(funcs)))


def _function_cores(func_op: func.FuncOp, vector_cores: tuple[str, ...]) -> set[str]:
    """The simulated cores that run `func_op`: its sides (analysis.kernel_layout), the
    vector side as each of `vector_cores`."""
    sides = sides_run(func_op)
    return ({"CUBE"} & sides) | (set(vector_cores) if "VECTOR" in sides else set())


# ----------------------------------------------------------------------------- id ranges


def _id_operand(op: Operation) -> tuple[int | None, SSAValue | None, int, str] | None:
    """(static id, dynamic id, how many ids there are, what they are) of a flag op."""
    if isinstance(op, hivm.SetFlagOp | hivm.WaitFlagOp):
        return op.event_id, op.dynamic_event_id, -1, "event id"
    if isinstance(op, hivm.SyncBlockSetOp | hivm.SyncBlockWaitOp):
        return op.flag_id, op.dynamic_flag_id, hardware.CROSS_CORE_FLAGS, "cross-core flag id"
    return None


def _id_range_errors(func_op: func.FuncOp, events_per_pipe_pair: int, chip_name: str) -> None:
    """Raise at the first flag op whose id may leave the ids the chip has."""
    for op in func_op.walk():
        found = _id_operand(op)
        if found is None:
            continue
        static, dynamic, count, what = found
        limit = events_per_pipe_pair if count < 0 else count
        where = f"{chip_name} has {limit} per pipe pair" if count < 0 else f"the hardware has {limit}"
        if static is not None:
            if not 0 <= static < limit:
                raise op_error(op, f"ascend-verify-sync: {what} {static} is out of range ({where}: 0..{limit - 1})")
            continue
        if dynamic is None:
            continue
        ranges = symbol_ranges(op)
        if ranges is None:
            continue  # inside a loop that never runs
        values = affine_range(affine_of(dynamic), ranges)
        if values is None:
            raise op_error(op, f"ascend-verify-sync: cannot bound this computed {what} statically ({where}: 0..{limit - 1})")
        lo, hi = values
        if lo < 0 or hi >= limit:
            raise op_error(
                op, f"ascend-verify-sync: computed {what} takes values in {lo}..{hi} over its loops ({where}: 0..{limit - 1})"
            )


# ----------------------------------------------------------------------------- the pass


def verify_functions(funcs: list[func.FuncOp], chip: Chip | None = None, carried: list[int] | None = None,
                     why: list[str] | None = None, shared: bool = True) -> bool:
    """Check one kernel: one function, or the two parts of a split MIX kernel (run
    side by side), under `chip`'s same-pipe rule (None: the default chip). Raise a located
    error for the first unsynchronised fact; False when too large to unroll.

    The functions' runs are paired (`analysis.same_in_run`): a loop or branch of one
    that is the same computation over the kernel's arguments as one of the other takes
    the same trip count or branch in a run of both; the rest are combined in every way.
    `carried` (when given) gets, per run of a varying nested loop's sequence of counts,
    how many passes back its state reached (`_Carry.age`) and the sequence's length, as
    age * 100 + length. `why` (when given) gets the reason of a False where it names loops.
    `shared`: the runs share what they compute alike (`RunMemo`, each op's facts and
    footprints per iteration, the units that may conflict); False: each run computes its
    own and searches every unit, the plain path the tests compare the verdicts with."""
    try:
        return _verify(funcs, chip, carried, shared)
    except _OverBudget as e:
        if why is not None:
            why.append(str(e))
        return False


def _verify(funcs: list[func.FuncOp], chip: Chip | None, carried: list[int] | None, shared: bool = True) -> bool:
    vector_cores = _vector_cores(funcs)
    shapes = {f: _FunctionShape(f, vector_cores) for f in funcs}
    plan = _run_plan(funcs, vector_cores, shapes)
    if plan is None:
        return False
    arguments = _shared_arguments(funcs)
    level_ids = run_key([op for f in funcs for op in f.walk() if isinstance(op, scf.ForOp)])
    seen: set[frozenset] = set()
    queues: dict[frozenset, dict[tuple[int, tuple], int]] = {}
    pending: dict[frozenset, dict[int, list]] = {}
    static = StaticConflicts(static_accesses([(f, shapes[f].cores_of) for f in funcs], vector_cores))
    memo = RunMemo(static=static)  # what every run computes alike
    runs = deque(plan)
    longer: set[tuple[frozenset, tuple]] = set()  # (the run's choices, lengths) already added
    over: list[_OverBudget] = []  # longer sequences over the budget: not verified, unless refused
    while runs:
        choice, trips = runs.popleft()
        runners = [_Runner(f, choice, vector_cores, trips, arguments.get(f), shapes[f] if shared else None, level_ids)
                   for f in funcs]
        try:
            steps = [s for r in runners for s in r.run()]
        except _TooLarge:
            return False
        # a choice for a loop or branch this run does not reach changes nothing in it
        met = frozenset((op, trips.get(op, 3)) for r in runners for op in r.dynamic_loops) | frozenset(
            (op, choice.get(op, 0)) for r in runners for op in r.ifs
        )
        if met in seen:
            continue
        seen.add(met)
        lengths = {len(t) for t in trips.values() if isinstance(t, tuple)}
        carry = None
        if lengths:
            same = frozenset((op, t) for op, t in trips.items() if isinstance(t, int)) | frozenset(choice.items())
            carry = Carry(static, chip, queues.setdefault(same, {}), *_pass_runs(runners), pending=pending.setdefault(same, {}))
        run_streams(Checker(vector_cores, chip, memo=memo if shared else RunMemo()), steps, carry)
        if carry is not None and carried is not None:
            carried.append(carry.age * 100 + max(lengths))
        if carry is not None and not over:
            try:
                runs.extend((choice, t) for t in _sequences_carry_needs(
                    trips, choice, carry, runners[0], longer, MAX_TRIP_RUNS - len(seen) - len(runs)))
            except _OverBudget as e:
                over.append(e)  # the runs planned still run: a refusal among them is said
    if over:
        raise over[0]
    return True


def _pass_runs(runners: list[_Runner]) -> tuple[list[dict[Hashable, int]], list[dict[Hashable, int]]]:
    """Per pass, how many runs of each level began up to its start and up to its end,
    over the functions of the kernel (the fewest at the start, the most at the end: ages
    are never under-counted)."""
    count = max(len(r.pass_starts) for r in runners)
    starts = [_merged([r.pass_starts[t] for r in runners if t < len(r.pass_starts)], min) for t in range(count)]
    ends = [_merged([r.pass_ends[t] for r in runners if t < len(r.pass_ends)], max) for t in range(count)]
    return starts, ends


def _merged(counts: list[dict[Hashable, int]], pick) -> dict[Hashable, int]:
    out: dict[Hashable, int] = {}
    for c in counts:
        for level, n in c.items():
            out[level] = pick(out[level], n) if level in out else n
    return out


def _sequences_carry_needs(trips: _Trips, choice: _Choice, carry: Carry, runner: _Runner,
                           longer: set[tuple[frozenset, tuple]], budget: int) -> list[_Trips]:
    """The runs a run's measured state asks for: the checks of a pass depend on at most
    `Carry.lengths` consecutive runs of each level (2 when the state after every pass was
    made in it), so every sequence of that many of each level's counts is run, once per
    run shape (`longer`)."""
    now = {loop: len(t) for loop, t in trips.items() if isinstance(t, tuple)}
    lengths = {loop: max(n, carry.lengths.get(runner._level(runner._enclosing_varying(loop)), 0)) for loop, n in now.items()}
    if lengths == now:
        return []
    key = (frozenset((op, t if isinstance(t, int) else None) for op, t in trips.items()) | frozenset(choice.items()),
           tuple(sorted(lengths.values())))
    if key in longer:
        return []
    longer.add(key)
    return _longer_sequences(trips, lengths, budget)


_Choice = dict[Operation, int]


def _shared_arguments(funcs: list[func.FuncOp]) -> dict[func.FuncOp, dict[Hashable, int | Affine]]:
    """The halves of a split kernel get the same arguments: each later function's
    arguments stand for the first's, so an address over `sk` in the cube and one over
    `sk` in the vectors are compared as one symbol (two symbols could differ)."""
    first = funcs[0].body.block.args
    out: dict[func.FuncOp, dict[Hashable, int | Affine]] = {}
    for f in funcs[1:]:
        args = f.body.block.args
        if [a.type for a in args] == [a.type for a in first]:
            out[f] = {mine: Affine.symbol(theirs) for mine, theirs in zip(args, first, strict=True)}
    return out
_OpT = TypeVar("_OpT", bound=Operation)
_Trips = dict[Operation, int | tuple[int, ...]]


def _run_plan(funcs: list[func.FuncOp], vector_cores: tuple[str, ...],
              shapes: dict[func.FuncOp, _FunctionShape] | None = None) -> list[tuple[_Choice, _Trips]] | None:
    """The runs to check: every branch combination of the kernel's `scf.if`s (paired
    across its functions, under every branch: an if or a runtime loop met only under
    a non-first branch gets its choices too), each with the trip choices of the runtime
    loops that combination reaches; None over MAX_PATHS / MAX_TRIP_RUNS or EVENT_BUDGET."""
    shapes = shapes or {f: _FunctionShape(f, vector_cores) for f in funcs}
    ifs = [op for f in funcs for op in f.walk() if isinstance(op, scf.IfOp)]
    loops = [op for f in funcs for op in f.walk() if isinstance(op, scf.ForOp)]
    keys = run_key([*ifs, *loops])
    if_groups = _groups(ifs, keys)
    paths = 1
    for group in if_groups:
        paths *= len(group[0].regions)
    if paths > MAX_PATHS:
        return None
    plan: list[tuple[_Choice, _Trips]] = []
    reached: set[frozenset] = set()
    for combo in product(*(range(len(group[0].regions)) for group in if_groups)):
        choice: _Choice = {op: index for group, index in zip(if_groups, combo, strict=True) for op in group}
        runners = [_Runner(f, choice, vector_cores, shape=shapes[f]) for f in funcs]
        try:
            for r in runners:
                r.run()
        except _TooLarge:
            return None
        met_ifs = frozenset((op, choice[op]) for r in runners for op in r.ifs)
        if met_ifs in reached:
            continue
        reached.add(met_ifs)
        dynamic = [op for r in runners for op in r.dynamic_loops if isinstance(op, scf.ForOp)]
        plan.extend((choice, trips) for trips in _trip_choices(_groups(dynamic, keys)))
        if len(plan) > MAX_TRIP_RUNS:
            return None
    return plan


def _groups(ops: Sequence[_OpT], keys: dict[Operation, Hashable]) -> list[list[_OpT]]:
    """`ops` by their run key, in order of first appearance."""
    groups: dict[Hashable, list[_OpT]] = {}
    for op in ops:
        groups.setdefault(keys[op], []).append(op)
    return list(groups.values())


def _covering(group: list[scf.ForOp]) -> range:
    """Trip counts covering every loop of a group of loops that take one trip count: the
    larger depth, the lcm of the periods and the widest trip-count bounds
    (`covering_trip_counts` for one loop)."""
    parts = [_covering_parts(loop) for loop in group]
    depth = max(p[0] for p in parts)
    period = lcm(*(p[1] for p in parts))
    fewest = min(p[2] for p in parts)
    mosts = [p[3] for p in parts]
    most = None if any(m is None for m in mosts) else max(m for m in mosts if m is not None)
    end = depth + 2 * period if most is None else min(most + 1, depth + 2 * period)
    return range(min(fewest, depth + period, end), end)


def _trip_choices(groups: list[list[scf.ForOp]]) -> Iterator[_Trips]:
    """One trip count per group of runtime-bounded loops that take one count, over the
    covering sets of all of them (one empty choice when there is none), then the
    varying counts of nested ones (`_varying_trip_choices`)."""
    ranges = [_covering(group) for group in groups]
    for combo in product(*ranges):
        yield {loop: n for group, n in zip(groups, combo, strict=True) for loop in group}
    yield from _varying_trip_choices(groups, ranges)


def _parent_loops(loop: Operation) -> list[scf.ForOp]:
    parents: list[scf.ForOp] = []
    op = loop.parent_op()
    while op is not None and not isinstance(op, func.FuncOp):
        if isinstance(op, scf.ForOp):
            parents.append(op)
        op = op.parent_op()
    return parents


def _varying_trip_choices(groups: list[list[scf.ForOp]], ranges: list[range]) -> Iterator[_Trips]:
    """A runtime-bounded loop nested in another loop may run a different number of times
    in each iteration of its parent (a per-row valid length, a causal loop). For each
    such group of loops and each ordered pair (a, b) of counts of its covering set, a run
    in which its runs take a, b, a, ... in turn: every two consecutive runs of it with
    any two covering counts, in both orders and in every phase of its parent (which runs
    `_parent_count` times; a nested group whose count is fixed in a run takes each of
    its covering counts, one per run, as it is met in every pass; the other groups take
    the count of their covering set nearest 2). Groups under one parent (`_sibling_clusters`: two inner loops of a row
    loop with counts f(r) and g(r)) vary jointly: a pass's count is the tuple of their
    counts, and every ordered pair of tuples of covering counts is run (over
    MAX_TRIP_RUNS: `_OverBudget`, naming the loops). All clusters vary jointly
    (`_joint_clusters`: a varying loop in a varying loop, or two under different
    parents): each level takes its own pair of tuples in turn, every combination of
    them is run. Why
    pairs cover every sequence of counts, and what is checked when they may not:
    `verify_sync_carry.Carry`, `_longer_sequences` and docs/runtime-shapes.md."""
    for joint in _joint_clusters(groups, _sibling_clusters(groups)):
        loops = [loop for i in joint for loop in groups[i]]
        parents = {p for loop in loops for p in _parent_loops(loop)[:1]} - set(loops)
        base: _Trips = {}
        fixed: list[tuple[list[scf.ForOp], range]] = []  # nested, fixed in a run: every covering count
        for j, (other, counts) in enumerate(zip(groups, ranges, strict=True)):
            if j in joint:
                continue
            if parents & set(other):
                base.update({loop: _parent_count(other, counts, 2) for loop in other})
            elif len(counts) and all(_parent_loops(loop) and _count_fixed_in_run(loop) for loop in other):
                fixed.append((other, counts))
            else:
                base.update({loop: _near(counts, 2) for loop in other})
        tuples = list(product(*(ranges[i] for i in joint)))
        _within_budget(len(tuples) ** 2 * prod(len(c) for _, c in fixed), MAX_TRIP_RUNS, [groups[i] for i in joint], 2)
        for counts in product(*(c for _, c in fixed)):
            at = {**base, **{loop: n for (group, _), n in zip(fixed, counts, strict=True) for loop in group}}
            for a, b in product(tuples, tuples):
                yield {**at, **{loop: (a[k], b[k]) for k, i in enumerate(joint) for loop in groups[i]}}


def _joint_clusters(groups: list[list[scf.ForOp]], clusters: list[list[int]]) -> list[list[int]]:
    """The clusters that vary jointly, as sets of group indices: all of them. A cluster
    nested in another (a varying loop in a varying loop) is a level of it; clusters
    under different parents follow one another in a run, so a pass of one can end where
    a run of the other begins, and its checks can depend on both counts (two sibling
    row loops, each with a nested loop: the first's last count and the second's first).
    docs/runtime-shapes.md, "Varying loops in varying loops"."""
    return [sorted(i for cluster in clusters for i in cluster)] if clusters else []


def _sibling_clusters(groups: list[list[scf.ForOp]]) -> list[list[int]]:
    """The indices of the groups of nested runtime loops, clustered by their parent loop
    (the nearest enclosing `scf.for`, or one of a group's paired parents): the groups of
    one cluster run in each iteration of one parent, each with a count of its own."""
    clusters: list[tuple[set[scf.ForOp], list[int]]] = []
    for i, group in enumerate(groups):
        parents = {p for loop in group for p in _parent_loops(loop)[:1]}
        if not parents or all(_count_fixed_in_run(loop) for loop in group):
            continue
        met = [c for c in clusters if c[0] & parents]
        for c in met[1:]:
            met[0][0].update(c[0])
            met[0][1].extend(c[1])
            clusters.remove(c)
        if met:
            met[0][0].update(parents)
            met[0][1].append(i)
        else:
            clusters.append((parents, [i]))
    return [sorted(indices) for _, indices in clusters]


def _count_fixed_in_run(loop: scf.ForOp) -> bool:
    """Whether a nested runtime loop takes one trip count in every iteration of every
    loop around it: its bounds are computed, by `arith` ops alone, from values defined
    outside all of them (computed once per run: SSA values never change), so the only
    sequences of counts a run gives it are constant, and its covering counts, one per
    run (`_trip_choices`' product, with the parent at each of its covering counts), are
    every execution (docs/runtime-shapes.md, "Loops whose count is fixed in a run")."""
    parents = _parent_loops(loop)
    return all(_fixed_in(value, parents) for value in (loop.lb, loop.ub, loop.step))


def _fixed_in(value: SSAValue, loops: list[scf.ForOp]) -> bool:
    """Whether `value` is the same in every iteration of `loops`: defined outside them,
    or an `arith` op's result (pure, no regions) over such values (a constant inside)."""
    owner = value.owner
    where = owner if isinstance(owner, Operation) else owner.parent_op()
    if where is None:
        return False
    if not any(p.is_ancestor(where) for p in loops):
        return True
    if not isinstance(owner, Operation) or not owner.name.startswith("arith.") or owner.regions:
        return False
    return all(_fixed_in(operand, loops) for operand in owner.operands)


def _within_budget(runs: int, budget: int, groups: list[list[scf.ForOp]], length: int | str) -> None:
    """Refuse (`_OverBudget`, naming the loops: the kernel is reported not verified) the
    `runs` of sequences of `length` (joint) counts of `groups` over `budget`."""
    if runs <= budget:
        return
    names = " and ".join(op_where(group[0]) for group in groups)
    raise _OverBudget(f"the sequences of {length} trip counts of the nested loop{'s' if len(groups) > 1 else ''} "
                      f"at {names} need {runs} runs, over the budget of {MAX_TRIP_RUNS}")


def _near(counts: range, target: int) -> int:
    return min(counts, key=lambda n: (abs(n - target), -n)) if len(counts) else 0


def _parent_count(group: list[scf.ForOp], counts: range, length: int) -> int:
    """The trip count of a varying loop's parent in the runs of sequences of `length`
    counts: at least D + P + 1 (its pipeline depth and period: every phase of it has a
    pass after it) and length + 1 (a whole sequence after the first pass), where its
    covering set allows."""
    depth = max(_covering_parts(loop)[0] for loop in group)
    period = lcm(*(_covering_parts(loop)[1] for loop in group))
    return _near(counts, max(depth + period + 1, length + 1))


def _longer_sequences(trips: _Trips, length: int | dict[Operation, int], budget: int | None = None) -> list[_Trips]:
    """The runs of a varying loop's every sequence of `length` covering counts, taken
    in turn (periodically) by its runs, in a run like `trips` (whose varying loop's state
    at the end of a pass was found to hold parts of `length - 2` runs before:
    `verify_sync_carry.Carry`): every window of `length` consecutive runs takes every
    sequence at every position. Sibling groups varying jointly take every sequence of
    tuples of their counts; the levels of varying loops in varying loops each take every
    sequence of their own length (`length` per loop), every combination of them; more
    than `budget` runs (default MAX_TRIP_RUNS, read when called): `_OverBudget`."""
    varying = [loop for loop, t in trips.items() if isinstance(t, tuple) and isinstance(loop, scf.ForOp)]
    groups = _groups(varying, run_key(list(varying)))
    lengths = [max(length[loop] for loop in group) if isinstance(length, dict) else length for group in groups]
    coverings = [_covering(group) for group in groups]
    runs = 1
    for counts, n in zip(coverings, lengths, strict=True):
        runs *= len(counts) ** n
    longest = max(lengths, default=2)
    _within_budget(runs, MAX_TRIP_RUNS if budget is None else budget, groups,
                   longest if len(set(lengths)) <= 1 else f"up to {longest}")
    parents = [loop for loop in trips if isinstance(loop, scf.ForOp) and loop not in varying
               and any(loop in _parent_loops(v)[:1] for v in varying)]
    base = dict(trips)
    if parents:
        now = [t for p in parents if isinstance(t := base[p], int)]
        count = max([_parent_count(parents, _covering(parents), longest), *now])
        base.update({p: count for p in parents})
    if len(set(lengths)) <= 1:  # one length: sequences of tuples of every group's counts
        tuples = list(product(*coverings))
        return [{**base, **{loop: tuple(t[k] for t in seq) for k, group in enumerate(groups) for loop in group}}
                for seq in product(tuples, repeat=longest)]
    per_group = [list(product(counts, repeat=n)) for counts, n in zip(coverings, lengths, strict=True)]
    return [{**base, **{loop: seq for group, seq in zip(groups, seqs, strict=True) for loop in group}}
            for seqs in product(*per_group)]


def verify_function(func_op: func.FuncOp, chip: Chip | None = None) -> bool:
    return verify_functions([func_op], chip)


def _kernels(module: ModuleOp) -> list[list[func.FuncOp]]:
    """Functions to check, the two parts of a split MIX kernel (analysis.kernel_layout's
    `<name>_mix_aic` / `<name>_mix_aiv` pairs) together."""
    funcs = [f for f in module.walk() if isinstance(f, func.FuncOp) and f.body.blocks]
    funcs = [f for f in funcs if any(isinstance(o, hivm.HivmPipeOp) for o in f.walk())]
    pairs = [list(pair) for pair in split_pairs(module).values()]
    paired = {f for pair in pairs for f in pair}
    return [[f] for f in funcs if f not in paired] + pairs


@dataclass(frozen=True)
class VerifySyncPass(ModulePass):
    """Check that the hivm IR's flags and barriers order every dependence (see module doc)."""

    name = "ascend-verify-sync"

    # the chip: its flag counts bound the event ids, its same-pipe rule orders accesses
    # (as for every pass: chips.resolve_chip)
    chip: str | None = None
    chip_file: str | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # tile ops have no pipes: their kernel passed with nothing checked
        require_hivm_level(op, self.name)
        try:
            chip = resolve_chip(op, self.chip or None, self.chip_file or None)
        except ChipError as e:
            raise e.pass_failure() from None
        for kernel in _kernels(op):
            for func_op in kernel:
                _id_range_errors(func_op, chip.events_per_pipe_pair, chip.name)
            why: list[str] = []
            if not verify_functions(kernel, chip, why=why):
                because = f" ({why[0]})" if why else ""
                emit_remark(kernel[0], f"ascend-verify-sync: kernel too large to unroll within the budget; not verified{because}")
