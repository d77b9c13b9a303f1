"""The `ascend` dialect: the schedule as typed attributes (DESIGN.md sections 2 and 6).

Passes write the schedule here and every later pass, printer and the simulator reads it
through the accessors below, so no module spells an `ascend.*` attribute name itself.

* `#ascend.task<latency = 846, ii = 656>` on every hivm op (ascend-estimate-latency), with
  `stage = 0, start = 574` added by ascend-modulo-schedule. A scheduled loop is itself a
  task of its parent: its `ascend.task` holds the whole loop's (latency, ii) and its slot.
  Invariants: `latency >= ii >= 1`, `stage >= 0`, `start >= 0`, stage and start together.
* `#ascend.loop<ii = 1792, mii = 1792, status = "optimal", res_mii = {MTE2 = 1230, M = 1792},
  rec_mii = 1792, binding = "M">` on every scheduled `scf.for`.
  Invariants: `ii >= mii >= 1`, `mii >= rec_mii`, `mii >= res_mii[p]`, binding a pipe,
  "recurrence", "conflict" or "none", status one of `LOOP_STATUSES`.
* `#ascend.buffer<versions = 2>` on every on-chip `memref.alloc` a loop may multi-buffer.
* `#ascend.drains<(MTE3, 18, 180), ...>` beside `#ascend.loop` when the schedule reserved
  flag drains: per reservation the pipe, its start in the schedule and its cycles (the
  pipe stands still while it publishes a flag; no op of the body holds that slot).
  Invariants: a pipe name, `start >= 0`, `cycles >= 1`.

Attribute names on operations: `ascend.task`, `ascend.loop`, `ascend.drains`, `ascend.buffer`; plus the
plain integers `ascend.grid` (launch blocks) and `ascend.num_stages` (version bound), and
the unit attribute `ascend.pipelined` on the kernel loop ascend-pipeline-loops emitted, and
`ascend.barrier_sync` on a loop ascend-modulo-schedule keeps in program order whose code
runs faster with its hand-offs as pipe_barrier[<PIPE_ALL>]s (ascend-insert-sync syncs it so;
the sync pass itself marks a function of straight-line code of one core that runs faster so),
and `ascend.one_pass` on a loop whose schedule is the timing of one-pass code (its stages
say when its ops run; ascend-pipeline-loops emits the body in start order, unskewed), and
the integer `ascend.solver_ii` on a loop whose II written (its code's replayed timing) is
not the II the solver chose for its model, and the integer `ascend.code_ii` on a loop whose
schedule was stretched to the II its code runs at: the II its code is laid out at (stage
order, set points), the solver's.
No wall-clock time is ever stored: the same input gives the same IR byte for byte.

`loop_slot_errors(loop, tasks)` checks what no single attribute can: every task of a
scheduled loop carries a slot with `stage == start // ii` (readers of the schedule call it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    IntAttr,
    IntegerAttr,
    StringAttr,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ascend_mlir import hardware

# names of the attributes on operations (only this module spells them)
TASK = "ascend.task"
LOOP = "ascend.loop"
DRAINS = "ascend.drains"
BUFFER = "ascend.buffer"
GRID = "ascend.grid"
NUM_STAGES = "ascend.num_stages"
PIPELINED = "ascend.pipelined"
# on a loop kept in program order whose code, replayed, runs faster with a
# pipe_barrier[<PIPE_ALL>] (one issue cycle) before each hand-off's consumer than with a
# set_flag / wait_flag pair (two, the set waiting for its pipe): one op at a time
BARRIER_SYNC = "ascend.barrier_sync"
# on a loop whose schedule is the timing its one-pass code runs at (an iteration longer
# than the II with no one-stage form: scheduling/code_timing.one_pass_schedule): the
# body is emitted in start order, one pass per iteration, whatever the stages
ONE_PASS = "ascend.one_pass"
# on a loop its schedule unrolled U > 1 times (absent: not unrolled)
UNROLL = "ascend.unroll"
# on a loop whose II written is not the II the solver chose for its model (the code of the
# solver's schedule replays at another II, and that one is written: the II the solver
# chose is kept here so the reports can show the two models side by side)
SOLVER_II = "ascend.solver_ii"
CODE_II = "ascend.code_ii"
# on a loop whose trip count is known at run time only and whose first few counts run
# faster in program order (scheduling/small_trips.py): `{below = K, loop = #ascend.loop<..>,
# start = array<i64: ..>}`, the program-order schedule (its tasks' starts in body order)
# ascend-pipeline-loops writes for at most K trips beside the pipelined loop
SMALL_TRIPS = "ascend.small_trips"
# on the `iv mod V` ascend-multi-buffer writes for a buffer's version: ascend-pipeline-loops
# reads it (a program-order copy at one version, `SmallTrips.one_version`, sets it to 0)
# and takes it off; a remainder written in the input (a rotation of the kernel's own
# buffers, which may carry data from pass to pass) has none
VERSION_INDEX = "ascend.version_index"

# program-order: the loop runs one iteration after another, estimated faster than its
# pipelined schedule over its trip count (ascend-modulo-schedule's program_order_result)
LOOP_STATUSES = ("optimal", "feasible", "heuristic", "fallback", "program-order")
UNSCHEDULED = -1  # stage/start of a task before ascend-modulo-schedule
BINDINGS = hardware.PIPES + ("recurrence", "conflict", "none")


# ----- `<key = value, ...>` syntax ---------------------------------------------------


def _parse_fields(parser: AttrParser, parse_value: Callable[[str], object]) -> dict[str, object]:
    values: dict[str, object] = {}

    def one() -> None:
        pos = parser.pos
        key = parser.parse_identifier()
        if key in values:
            parser.raise_error(f"duplicate key '{key}'", pos)
        parser.parse_punctuation("=")
        values[key] = parse_value(key)

    parser.parse_comma_separated_list(parser.Delimiter.ANGLE, one)
    return values


def _require(parser: AttrParser, values: dict[str, object], keys: Sequence[str], allowed: Sequence[str],
             what: str) -> None:
    for key in values:
        if key not in allowed:
            parser.raise_error(f"{what}: unknown key '{key}' (expected {', '.join(allowed)})")
    for key in keys:
        if key not in values:
            parser.raise_error(f"{what}: missing key '{key}'")


def _checked(parser: AttrParser, make: Callable[[], ParametrizedAttribute]) -> ParametrizedAttribute:
    try:
        return make()
    except VerifyException as e:
        parser.raise_error(str(e))


def _print_fields(printer: Printer, fields: Sequence[tuple[str, str]]) -> None:
    printer.print_string("<" + ", ".join(f"{k} = {v}" for k, v in fields) + ">")


# ----- attributes ----------------------------------------------------------------------


@irdl_attr_definition
class TaskAttr(ParametrizedAttribute):
    """Cost and slot of one task: `#ascend.task<latency = L, ii = I[, stage = K, start = S]>`.

    latency: cycles from issue to completion; ii: cycles the task occupies its pipe(s)
    before the next op may issue there; stage/start: the modulo schedule's slot
    (`start = stage * loop II + offset`), absent before ascend-modulo-schedule."""

    name = "ascend.task"

    # stage_/start_ are -1 before scheduling (printed as absent): plain integers keep the
    # exported IRDL simple
    latency_: IntAttr = param_def()
    ii_: IntAttr = param_def()
    stage_: IntAttr = param_def()
    start_: IntAttr = param_def()

    def __init__(self, latency: int, ii: int, stage: int | None = None, start: int | None = None):
        super().__init__(
            IntAttr(latency),
            IntAttr(ii),
            IntAttr(UNSCHEDULED if stage is None else stage),
            IntAttr(UNSCHEDULED if start is None else start),
        )

    @property
    def latency(self) -> int:
        return self.latency_.data

    @property
    def ii(self) -> int:
        return self.ii_.data

    @property
    def stage(self) -> int | None:
        return None if self.stage_.data == UNSCHEDULED else self.stage_.data

    @property
    def start(self) -> int | None:
        return None if self.start_.data == UNSCHEDULED else self.start_.data

    @property
    def scheduled(self) -> bool:
        return self.stage is not None

    def verify(self) -> None:
        if self.ii < 1:
            raise VerifyException(f"#ascend.task: ii must be >= 1, got {self.ii}")
        if self.latency < self.ii:
            raise VerifyException(f"#ascend.task: latency ({self.latency}) must be >= ii ({self.ii})")
        for key, value in (("stage", self.stage_.data), ("start", self.start_.data)):
            if value < UNSCHEDULED:
                raise VerifyException(f"#ascend.task: {key} must be >= 0, got {value}")
        if (self.stage is None) != (self.start is None):
            raise VerifyException("#ascend.task: stage and start go together")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        values = _parse_fields(parser, lambda _key: parser.parse_integer(allow_boolean=False))
        _require(parser, values, ("latency", "ii"), ("latency", "ii", "stage", "start"), "#ascend.task")
        for key in ("stage", "start"):
            if key in values and values[key] < 0:  # type: ignore[operator]
                parser.raise_error(f"#ascend.task: {key} must be >= 0, got {values[key]}")
        attr = _checked(parser, lambda: TaskAttr(values["latency"], values["ii"],  # type: ignore[arg-type]
                                                 values.get("stage"), values.get("start")))  # type: ignore[arg-type]
        return attr.parameters

    def print_parameters(self, printer: Printer) -> None:
        fields = [("latency", str(self.latency)), ("ii", str(self.ii))]
        if self.stage is not None:
            fields += [("stage", str(self.stage)), ("start", str(self.start))]
        _print_fields(printer, fields)


def _pipe_key(pipe: str) -> tuple[int, str]:
    order = {p: i for i, p in enumerate(hardware.PIPES)}
    return (order.get(pipe, len(order)), pipe)


@irdl_attr_definition
class LoopAttr(ParametrizedAttribute):
    """The schedule of one loop: `#ascend.loop<ii = .., mii = .., status = "..", res_mii =
    {PIPE = n, ..}, rec_mii = .., binding = "..">`. res_mii lists pipes in PIPES order."""

    name = "ascend.loop"

    ii_: IntAttr = param_def()
    mii_: IntAttr = param_def()
    res_mii_: DictionaryAttr = param_def()
    rec_mii_: IntAttr = param_def()
    binding_: StringAttr = param_def()
    status_: StringAttr = param_def()

    def __init__(self, ii: int, mii: int, res_mii: dict[str, int], rec_mii: int, binding: str, status: str):
        res = DictionaryAttr({p: IntegerAttr(res_mii[p], i64) for p in sorted(res_mii, key=_pipe_key)})
        super().__init__(IntAttr(ii), IntAttr(mii), res, IntAttr(rec_mii), StringAttr(binding), StringAttr(status))

    @property
    def ii(self) -> int:
        return self.ii_.data

    @property
    def mii(self) -> int:
        return self.mii_.data

    @property
    def res_mii(self) -> dict[str, int]:
        return {k: v.value.data for k, v in self.res_mii_.data.items() if isinstance(v, IntegerAttr)}

    @property
    def rec_mii(self) -> int:
        return self.rec_mii_.data

    @property
    def binding(self) -> str:
        return self.binding_.data

    @property
    def status(self) -> str:
        return self.status_.data

    def verify(self) -> None:
        if self.mii < 1:
            raise VerifyException(f"#ascend.loop: mii must be >= 1, got {self.mii}")
        if self.ii < self.mii:
            raise VerifyException(f"#ascend.loop: ii ({self.ii}) is below mii ({self.mii})")
        if self.rec_mii > self.mii:
            raise VerifyException(f"#ascend.loop: rec_mii ({self.rec_mii}) is above mii ({self.mii})")
        for pipe, value in self.res_mii_.data.items():
            if pipe not in hardware.PIPES:
                raise VerifyException(f"#ascend.loop: res_mii names unknown pipe '{pipe}'")
            if not isinstance(value, IntegerAttr) or not 0 <= value.value.data <= self.mii:
                raise VerifyException(f"#ascend.loop: res_mii[{pipe}] must be an integer in [0, mii]")
        if self.binding not in BINDINGS:
            raise VerifyException(
                f"#ascend.loop: binding must be one of {', '.join(BINDINGS)}, got '{self.binding}'")
        if self.status not in LOOP_STATUSES:
            raise VerifyException(
                f"#ascend.loop: status must be one of {', '.join(LOOP_STATUSES)}, got '{self.status}'")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        def value(key: str) -> object:
            if key in ("binding", "status"):
                return parser.parse_str_literal()
            if key == "res_mii":
                return _parse_pipe_dict(parser)
            return parser.parse_integer(allow_boolean=False)

        keys = ("ii", "mii", "res_mii", "rec_mii", "binding", "status")
        values = _parse_fields(parser, value)
        _require(parser, values, keys, keys, "#ascend.loop")
        attr = _checked(parser, lambda: LoopAttr(*(values[k] for k in keys)))  # type: ignore[arg-type]
        return attr.parameters

    def print_parameters(self, printer: Printer) -> None:
        res = ", ".join(f"{p} = {n}" for p, n in self.res_mii.items())
        _print_fields(printer, [
            ("ii", str(self.ii)), ("mii", str(self.mii)), ("status", f'"{self.status}"'),
            ("res_mii", "{" + res + "}"), ("rec_mii", str(self.rec_mii)), ("binding", f'"{self.binding}"'),
        ])


def _parse_pipe_dict(parser: AttrParser) -> dict[str, int]:
    out: dict[str, int] = {}

    def one() -> None:
        pipe = parser.parse_identifier()
        parser.parse_punctuation("=")
        out[pipe] = parser.parse_integer(allow_boolean=False)

    parser.parse_comma_separated_list(parser.Delimiter.BRACES, one)
    return out


@irdl_attr_definition
class BufferAttr(ParametrizedAttribute):
    """`#ascend.buffer<versions = N>`: how many copies of an on-chip buffer the schedule
    uses (iteration j of its loop uses version j mod N)."""

    name = "ascend.buffer"

    versions_: IntAttr = param_def()

    def __init__(self, versions: int):
        super().__init__(IntAttr(versions))

    @property
    def versions(self) -> int:
        return self.versions_.data

    def verify(self) -> None:
        if self.versions < 1:
            raise VerifyException(f"#ascend.buffer: versions must be >= 1, got {self.versions}")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        values = _parse_fields(parser, lambda _key: parser.parse_integer(allow_boolean=False))
        _require(parser, values, ("versions",), ("versions",), "#ascend.buffer")
        return _checked(parser, lambda: BufferAttr(values["versions"])).parameters  # type: ignore[arg-type]

    def print_parameters(self, printer: Printer) -> None:
        _print_fields(printer, [("versions", str(self.versions))])


@dataclass(frozen=True)
class Drain:
    """One flag-drain reservation of a loop's schedule."""

    pipe: str
    start: int
    cycles: int


@irdl_attr_definition
class DrainsAttr(ParametrizedAttribute):
    """`#ascend.drains<(PIPE, start, cycles), ...>`: the flag drains the schedule of a
    loop reserved, in the order the solver had them (pipe order)."""

    name = "ascend.drains"

    entries_: ArrayAttr = param_def()

    def __init__(self, drains: Sequence[Drain]):
        # i64 integers (not xDSL's builtin.int): the generic form must read in mlir-opt
        super().__init__(ArrayAttr([ArrayAttr([StringAttr(d.pipe), IntegerAttr(d.start, i64),
                                               IntegerAttr(d.cycles, i64)]) for d in drains]))

    @property
    def drains(self) -> list[Drain]:
        out = []
        for entry in self.entries_.data:
            pipe, start, cycles = entry.data  # type: ignore[attr-defined]
            out.append(Drain(pipe.data, start.value.data, cycles.value.data))
        return out

    def verify(self) -> None:
        for entry in self.entries_.data:
            if not (isinstance(entry, ArrayAttr) and len(entry.data) == 3 and isinstance(entry.data[0], StringAttr)
                    and all(isinstance(x, IntegerAttr) for x in entry.data[1:])):
                raise VerifyException("#ascend.drains: each entry is (pipe, start, cycles)")
        for d in self.drains:
            if d.pipe not in hardware.PIPES:
                raise VerifyException(f"#ascend.drains: unknown pipe '{d.pipe}'")
            if d.start < 0 or d.cycles < 1:
                raise VerifyException(f"#ascend.drains: {d.pipe} needs start >= 0 and cycles >= 1, "
                                      f"got start {d.start}, cycles {d.cycles}")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        drains: list[Drain] = []

        def one() -> None:
            parser.parse_punctuation("(")
            pipe = parser.parse_identifier()
            parser.parse_punctuation(",")
            start = parser.parse_integer(allow_boolean=False)
            parser.parse_punctuation(",")
            cycles = parser.parse_integer(allow_boolean=False)
            parser.parse_punctuation(")")
            drains.append(Drain(pipe, start, cycles))

        parser.parse_comma_separated_list(parser.Delimiter.ANGLE, one)
        return _checked(parser, lambda: DrainsAttr(drains)).parameters

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<" + ", ".join(f"({d.pipe}, {d.start}, {d.cycles})" for d in self.drains) + ">")


Ascend = Dialect("ascend", [], [TaskAttr, LoopAttr, BufferAttr, DrainsAttr])


# ----- accessors (the only way other modules read or write the schedule) ---------------


def task_of(op: Operation) -> TaskAttr | None:
    attr = op.attributes.get(TASK)
    return attr if isinstance(attr, TaskAttr) else None


def set_task(op: Operation, latency: int, ii: int, stage: int | None = None, start: int | None = None) -> None:
    op.attributes[TASK] = TaskAttr(latency, ii, stage, start)


def set_slot(op: Operation, stage: int, start: int) -> None:
    """Add the schedule slot to an op that already has its cost."""
    task = task_of(op)
    if task is None:
        raise ValueError(f"{op.name} has no {TASK} to add a slot to")
    op.attributes[TASK] = TaskAttr(task.latency, task.ii, stage, start)


def loop_of(op: Operation) -> LoopAttr | None:
    attr = op.attributes.get(LOOP)
    return attr if isinstance(attr, LoopAttr) else None


def set_loop(op: Operation, attr: LoopAttr) -> None:
    op.attributes[LOOP] = attr


def drains_of(loop: Operation) -> list[Drain]:
    """The flag drains the loop's schedule reserved ([] when none)."""
    attr = loop.attributes.get(DRAINS)
    return attr.drains if isinstance(attr, DrainsAttr) else []


def set_drains(loop: Operation, drains: Sequence[Drain]) -> None:
    """Record the loop's drain reservations (none: the attribute is dropped)."""
    if drains:
        loop.attributes[DRAINS] = DrainsAttr(drains)
    else:
        loop.attributes.pop(DRAINS, None)


def versions_of(alloc: Operation) -> int:
    """Versions of a buffer (1 when the schedule gave it none)."""
    attr = alloc.attributes.get(BUFFER)
    return attr.versions if isinstance(attr, BufferAttr) else 1


def has_versions(alloc: Operation) -> bool:
    return isinstance(alloc.attributes.get(BUFFER), BufferAttr)


def set_versions(alloc: Operation, versions: int) -> None:
    alloc.attributes[BUFFER] = BufferAttr(versions)


def _int_attr(op: Operation, name: str) -> int | None:
    attr = op.attributes.get(name)
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def num_stages_of(loop: Operation) -> int | None:
    return _int_attr(loop, NUM_STAGES)


def set_num_stages(loop: Operation, stages: int) -> None:
    loop.attributes[NUM_STAGES] = IntegerAttr(stages, i64)


def unroll_of(loop: Operation) -> int:
    """The factor U by which the schedule unrolled `loop` (1: not unrolled)."""
    return _int_attr(loop, UNROLL) or 1


def set_unroll(loop: Operation, factor: int) -> None:
    loop.attributes[UNROLL] = IntegerAttr(factor, i64)


def solver_ii_of(loop: Operation) -> int | None:
    """The II the solver chose for the loop's model, where the II written differs (the
    code's replayed timing); None where the II written is the solver's."""
    return _int_attr(loop, SOLVER_II)


def set_solver_ii(loop: Operation, ii: int) -> None:
    loop.attributes[SOLVER_II] = IntegerAttr(ii, i64)


def code_ii_of(loop: Operation) -> int | None:
    """The II the loop's code is laid out at (the order of its stages, the modulo window
    of its set points) where the II written is that schedule stretched (same stages and
    offsets) to the II the code runs at; None where it is the II written."""
    return _int_attr(loop, CODE_II)


def set_code_ii(loop: Operation, ii: int) -> None:
    loop.attributes[CODE_II] = IntegerAttr(ii, i64)


def grid_of(func_op: Operation) -> int | None:
    return _int_attr(func_op, GRID)


def set_grid(func_op: Operation, blocks: int) -> None:
    func_op.attributes[GRID] = IntegerAttr(blocks, i64)


def launch_grid(func_op: Operation) -> int:
    """The blocks a kernel function runs on: its `ascend.grid`, or before
    convert-tile-to-hivm the tile-level `tile.grid`; 1 without either (at least 1)."""
    from ascend_mlir.dialects.tile import GRID_ATTR as TILE_GRID

    for grid in (grid_of(func_op), _int_attr(func_op, TILE_GRID)):
        if grid is not None:
            return max(1, grid)
    return 1


@dataclass(frozen=True)
class SmallTrips:
    """`SMALL_TRIPS`: program order, scheduled `loop` / `start`, for at most `below` trips;
    `one_version`: at version 0 of each buffer (else the pipelined loop's versions)."""

    below: int
    loop: LoopAttr
    start: tuple[int, ...]
    one_version: bool = False


def small_trips_of(loop: Operation) -> SmallTrips | None:
    attr = loop.attributes.get(SMALL_TRIPS)
    if not isinstance(attr, DictionaryAttr):
        return None
    below, sched, start = (attr.data.get(k) for k in ("below", "loop", "start"))
    if not (isinstance(below, IntegerAttr) and isinstance(sched, LoopAttr) and isinstance(start, DenseArrayBase)):
        return None
    return SmallTrips(below.value.data, sched, tuple(int(v) for v in start.get_values()), "one_version" in attr.data)


def set_small_trips(loop: Operation, below: int, sched: LoopAttr, start: Sequence[int], one_version: bool = False,
                    ) -> None:
    entries: dict[str, Attribute] = {"below": IntegerAttr(below, i64), "loop": sched,
                                     "start": DenseArrayBase.from_list(i64, list(start))}
    if one_version:
        entries["one_version"] = UnitAttr()
    loop.attributes[SMALL_TRIPS] = DictionaryAttr(entries)


def is_pipelined(loop: Operation) -> bool:
    return PIPELINED in loop.attributes


def set_pipelined(loop: Operation) -> None:
    loop.attributes[PIPELINED] = UnitAttr()


def is_one_pass(loop: Operation) -> bool:
    return ONE_PASS in loop.attributes


def set_one_pass(loop: Operation) -> None:
    loop.attributes[ONE_PASS] = UnitAttr()


def is_barrier_sync(loop: Operation) -> bool:
    return BARRIER_SYNC in loop.attributes


def set_barrier_sync(loop: Operation) -> None:
    loop.attributes[BARRIER_SYNC] = UnitAttr()


def clear_schedule(op: Operation) -> None:
    """Drop the schedule attributes of one op (e.g. a clone outside its loop)."""
    for name in (TASK, LOOP, DRAINS, BUFFER):
        op.attributes.pop(name, None)


@dataclass(frozen=True)
class SlotError:
    op: Operation
    message: str


def loop_slot_errors(loop: Operation, tasks: Sequence[Operation]) -> list[SlotError]:
    """What is inconsistent between a loop's `#ascend.loop` and its tasks' slots."""
    sched = loop_of(loop)
    if sched is None:
        return [SlotError(loop, f"has no {LOOP}; run ascend-modulo-schedule first")]
    # a schedule written at the II its code runs at keeps the layout of `code_ii` (stages and
    # offsets): its slots are those of the layout, whose offsets may pass a lower II written
    layout = code_ii_of(loop) or sched.ii
    errors = []
    for op in tasks:
        task = task_of(op)
        if task is None or task.stage is None or task.start is None:
            errors.append(SlotError(op, f"is a task of a scheduled loop but has no {TASK} slot"))
        elif task.stage != (at := task.start - task.stage * (sched.ii - layout)) // layout:
            errors.append(SlotError(
                op, f"has stage {task.stage} but start {task.start} lies in stage "
                f"{at // layout} of II {layout}"))
    return errors
