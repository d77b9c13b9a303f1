"""`compile` and `simulate`: run a DSL kernel through the compiler and the oracle.

`compile(k, target=...)` builds the tile-level module, runs `ascend-compile` (the pass
ascend-opt and ascend-sim run) and prints the result with the named target; it returns
a `Compiled` holding the text and a `Report`: per loop the II, its lower bound and what
binds it, the buffer versions (read from the compiled module: nothing is scheduled
twice), and the simulated cycles against the pipe-busy bound.
`simulate(k, inputs)` runs the compiled kernel on the pipe-level simulator (race
detector included) and the tile-level reference interpreter on the same numpy inputs.

A compiler diagnostic about the kernel is a `CompileError` whose message starts with the
Python `file:line:col` of the op it is about (the DSL stamps every op with its line).
"""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException

from ascend_mlir.dialects import ascend
from ascend_mlir.frontend.builder import DSLError, user_location
from ascend_mlir.frontend.kernel import Kernel

TARGETS = ("mlir", "npuir", "cce")


class CompileError(Exception):
    """The compiler rejected the kernel; the message is `file:line:col: error: ...`."""


class UsageError(DSLError, ValueError):
    """A wrong argument to T.compile / T.simulate (an unknown input name, a seed that is
    no int, an unknown target), at the caller's line; a ValueError as before."""


class NotAKernelError(DSLError, TypeError):
    """T.compile / T.simulate of something that is not a @kernel function."""


_LOCATED = re.compile(r"^\S.*:\d+:\d+: ")


def _at_user_line(text: str) -> str:
    """`text` (a rendered diagnostic) located at the user's line when it names no
    location of its own (a bad pass option, an input of the wrong shape)."""
    if _LOCATED.match(text):
        return text
    where = user_location()
    return f"{where}: {text}" if where is not None else text


@dataclass
class LoopReport:
    name: str
    ii: int
    mii: int
    binding: str
    status: str
    versions: dict[str, int]


@dataclass
class Report:
    """What the compiler decided and what the simulator measured (block 0 for busy)."""

    compile_mode: str
    loops: list[LoopReport] = field(default_factory=list)
    schedule_source: str = ""
    cycles: int | None = None
    pipe_busy: dict[str, int] = field(default_factory=dict)
    races: int | None = None

    @property
    def bound(self) -> int | None:
        """Pipe-busy bound: the busiest pipe's cycles (no schedule can beat it)."""
        return max(self.pipe_busy.values()) if self.pipe_busy else None

    @property
    def ratio(self) -> float | None:
        """Simulated cycles / pipe-busy bound (1.0 = the busiest pipe never idles)."""
        if self.cycles is None or not self.bound:
            return None
        return self.cycles / self.bound

    def summary(self) -> str:
        lines = [f"compile mode: {self.compile_mode}"]
        for loop in self.loops:
            versions = ", ".join(f"{k}={v}" for k, v in loop.versions.items()) or "-"
            lines.append(f"loop {loop.name}: II {loop.ii} (MII {loop.mii}, bound by {loop.binding}, "
                         f"{loop.status}); versions {versions}")
        if self.loops:
            lines.append(f"  (schedule: {self.schedule_source})")
        if self.cycles is not None:
            lines.append(f"simulated: {self.cycles} cycles, pipe-busy bound {self.bound} "
                         f"({max(self.pipe_busy, key=self.pipe_busy.__getitem__)}), "
                         f"ratio {self.ratio:.2f}, races {self.races}")
        return "\n".join(lines)


class Compiled(NamedTuple):
    """`text, report = compile(...)`, or `.text` / `.report`."""

    text: str
    report: Report


def _context() -> Context:
    from ascend_mlir.dialects import register_dialects

    ctx = Context()
    register_dialects(ctx)
    return ctx


def _diagnostic(err: BaseException) -> str:
    from ascend_mlir.diagnostics import exception_diagnostic

    return exception_diagnostic(err).render(show_source=False)


@contextlib.contextmanager
def _located_simulation_problems() -> Iterator[None]:
    """What the simulator or the reference find in the kernel (an access out of bounds at
    the bound sizes, an op they cannot run) as a CompileError at the user's line."""
    from ascend_mlir.sim.routes import located_problem, run_problem_types

    try:
        yield
    except run_problem_types() as err:
        raise CompileError(_at_user_line(located_problem(err))) from None


def _compile_spec(chip: str | None, options: dict[str, str]) -> str:
    if chip is not None and not str(chip).strip():  # an unset variable: not "the default chip"
        raise UsageError("chip is empty (a built-in chip: ascend950, ascend910b; or a chip file)")
    # values quoted: a chip file path has characters the pipeline syntax does not take bare
    parts = ([f'chip="{chip}"'] if chip else []) + [f'{k}="{v}"' for k, v in options.items()]
    return "ascend-compile" + ("{" + " ".join(parts) + "}" if parts else "")


def _run_passes(module: ModuleOp, spec: str) -> None:
    from xdsl.passes import PassPipeline

    from ascend_mlir.diagnostics import verify_module
    from ascend_mlir.transforms import get_all_passes

    passes = {name: factory for name, factory in get_all_passes().items()}
    try:
        PassPipeline.parse_spec(passes, spec).apply(_context(), module)
    except (DiagnosticException, ValueError, NotImplementedError) as err:
        raise CompileError(_at_user_line(_diagnostic(err))) from None
    problems = verify_module(module)
    if problems:
        raise CompileError(_at_user_line(problems[0].render(show_source=False)))


def _print(module: ModuleOp, target: str) -> str:
    if target == "mlir":
        stream = io.StringIO()
        Printer(stream=stream).print_op(module)
        return stream.getvalue() + "\n"
    from ascend_mlir.targets import get_all_targets

    targets = get_all_targets()
    if target not in targets:
        raise CompileError(f"error: target '{target}' is not available in this build "
                           f"(available: mlir, {', '.join(sorted(targets))})")
    stream = io.StringIO()
    try:
        targets[target]()().emit(_context(), module, stream)
    except (DiagnosticException, ValueError, NotImplementedError) as err:
        raise CompileError(_diagnostic(err)) from None
    return stream.getvalue()


def _schedule(compiled: ModuleOp, chip: str | None) -> tuple[list[LoopReport], str]:
    """The loops' modulo schedule, read from the compiled module itself (its loops keep
    `#ascend.loop`, its tasks `#ascend.task`, its buffers `#ascend.buffer` or their
    version views: `-t schedule-json` reads the same), so nothing is scheduled twice. A
    MIX kernel's loop is in both of its parts (`_mix_aic`, `_mix_aiv`): one report, the
    buffers of both. A compile mode that does not schedule reports no loops."""
    from ascend_mlir.targets.schedule_json import named_schedule_report
    from ascend_mlir.analysis.kernel_layout import MIX_SUFFIXES

    if not any(ascend.loop_of(op) is not None for op in compiled.walk()):
        return [], "none (this compile mode does not schedule)"
    try:
        data, names = named_schedule_report(compiled, "report", chip, lenient=True)
    except DiagnosticException as err:
        raise CompileError(_diagnostic(err)) from None
    loops: dict[str, LoopReport] = {}
    for function, loop_names in zip(data["functions"], names, strict=True):
        for loop, name in zip(function["loops"], loop_names, strict=True):
            fname, dot, rest = name.partition(".")
            for suffix in MIX_SUFFIXES.values():
                fname = fname.removesuffix(suffix)
            name = fname + dot + rest
            report = loops.setdefault(name, LoopReport(name, loop["ii"], loop["mii"], loop["binding"],
                                                       loop["status"], {}))
            for b in loop["buffers"]:
                report.versions.setdefault(b["name"], b["versions"])
    return list(loops.values()), "ascend-compile"


def _as_kernel(k: object) -> Kernel:
    if not isinstance(k, Kernel):
        raise NotAKernelError(f"expected a @kernel function, got {type(k).__name__}")
    return k


def compile(  # noqa: A001 - the natural name, as in TileLang
    k: Kernel,
    target: str = "mlir",
    chip: str | None = None,
    *,
    simulate: bool = True,
    schedule: bool | str = True,
    **options: str,
) -> Compiled:
    """Compile `k` with ascend-compile and print it with `target` (mlir: the compiled hivm
    IR; npuir: AscendNPU IR for bishengir-compile; cce: CCE source, compiled with
    ascend-compile{target=cce}). `options` are further ascend-compile options (e.g. sync="barrier-all").
    The report's cycles come from simulating every block (skip with simulate=False), its
    loops' schedules are read back unless schedule=False; a str `schedule` is
    ascend-compile's option ("modulo", "program-order"), as T.simulate takes it (it was
    the report's flag alone, and schedule="program-order" compiled modulo, silently)."""
    if target not in TARGETS:
        raise UsageError(f"unknown target {target!r} (expected one of {', '.join(TARGETS)})")
    if isinstance(schedule, str):
        options, schedule = {"schedule": schedule, **options}, True
    elif not isinstance(schedule, bool):
        raise UsageError(f"schedule is ascend-compile's option (a str) or whether the report reads the "
                         f"loops' schedules (a bool), got {schedule!r}")
    kernel = _as_kernel(k)
    tile_module = kernel.build()
    module = tile_module.clone()
    if target == "cce":  # -t cce prints what ascend-compile{target=cce} prepared (mmadL1 lowered)
        options = {"target": "cce", **options}
    spec = _compile_spec(chip, options)
    _run_passes(module, spec)
    report = Report(compile_mode=spec)
    if schedule and any(op.name == "scf.for" for op in module.walk()):
        report.loops, report.schedule_source = _schedule(module, chip)
    if simulate:
        from ascend_mlir.sim.simulator import simulate as run

        with _located_simulation_problems():
            result = run(module.clone(), None, chip=chip, trace=False)
        report.cycles, report.pipe_busy, report.races = result.cycles, dict(result.pipe_busy), len(result.races)
    text = _print(module.clone(), target)
    return Compiled(text, report)


@dataclass
class SimReport:
    """The oracle's verdict. `outputs`/`expected` map parameter names to arrays."""

    cycles: int
    races: list[str]
    deadlock: bool
    unbalanced_flags: list[str]
    reference_match: bool
    mismatches: list[str]
    outputs: dict[str, np.ndarray]
    expected: dict[str, np.ndarray]
    pipe_busy: dict[str, int]
    raw: Any = None
    # reads of on-chip memory no op wrote (the outputs are then never a reference match)
    uninitialized_reads: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return (not self.races and not self.deadlock and not self.unbalanced_flags
                and not self.uninitialized_reads and self.reference_match)


def _inputs_by_position(kernel: Kernel, func_args: list, inputs) -> dict[str, np.ndarray]:
    names = [name for name, _ in kernel.parameters()]
    if inputs is None:
        return {}
    if isinstance(inputs, dict):
        unknown = set(inputs) - set(names)
        if unknown:
            raise UsageError(f"unknown inputs {sorted(unknown)} (parameters: {', '.join(names)})")
        return {f"arg{names.index(n)}": _numeric(n, v) for n, v in inputs.items()}
    if not isinstance(inputs, list | tuple):
        raise UsageError(f"inputs are a dict by parameter name or a list in parameter order, got {type(inputs).__name__}")
    values = list(inputs)
    if len(values) > len(names):
        raise UsageError(f"{len(values)} inputs for {len(names)} parameters ({', '.join(names)})")
    return {f"arg{i}": _numeric(names[i], v) for i, v in enumerate(values)}


def _numeric(name: str, value) -> np.ndarray:
    """`value` as an array of numbers (an array of Python objects ended in a TypeError
    inside the reference interpreter)."""
    array = np.asarray(value)
    if array.dtype.kind not in "biuf" and array.dtype.name != "bfloat16":
        raise UsageError(f"input {name}: an array of numbers, got one of {array.dtype}")
    return array


def simulate(k: Kernel, inputs=None, chip: str | None = None, *, seed: int = 0,
             bind: Mapping[str, object] | None = None, **options: str) -> SimReport:
    """Compile `k` and run it on the simulator and on the reference interpreter.
    `inputs`: a dict by parameter name or a list in parameter order (numpy arrays; bf16
    as ml_dtypes.bfloat16, or float values rounded to it once); parameters left out get
    the seeded inputs ascend-sim uses. `bind` gives runtime sizes by parameter name (a
    `T.symbol` parameter an int, a tensor with symbol dimensions its shape tuple), as
    `ascend-sim --bind` does; unbound ones take sim.binding's defaults."""
    return simulate_sizes(k, [bind or {}], inputs, chip, seed=seed, **options)[0]


def simulate_sizes(k: Kernel, binds: Sequence[Mapping[str, object]], inputs=None, chip: str | None = None, *,
                   seed: int = 0, **options: str) -> list[SimReport]:
    """Compile `k` once and simulate it at every binding of `binds` (see `simulate`):
    one report per binding, each checked against the reference at those sizes."""
    from ascend_mlir.sim.reference import kernel_function

    kernel = _as_kernel(k)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise UsageError(f"seed must be a non-negative int, got {seed!r}")
    tile_module = kernel.build()
    module = tile_module.clone()
    _run_passes(module, _compile_spec(chip, options))
    function = kernel_function(tile_module)
    return [_simulate_compiled(kernel, tile_module, module, function, bind, inputs, chip, seed) for bind in binds]


def _bind_texts(bind: Mapping[str, object]) -> dict[str, str]:
    if not isinstance(bind, Mapping):
        # bind=3 was an AttributeError ('int' object has no attribute 'items')
        raise UsageError(f"bind is a mapping of argument names to sizes or values "
                           f"({{'n': 1000, 'x': (1000, 64)}}), got {bind!r}")
    return {name: "x".join(str(d) for d in value) if isinstance(value, tuple | list) else str(value)
            for name, value in bind.items()}


def _simulate_compiled(kernel: Kernel, tile_module, module, function, bind: Mapping[str, object], inputs,
                       chip: str | None, seed: int) -> SimReport:
    from ascend_mlir.sim.binding import BindError, bind_arguments
    from ascend_mlir.sim.reference import make_inputs, run_reference
    from ascend_mlir.sim.simulator import simulate as run
    from ascend_mlir.sim.routes import compare_simulated, error_size

    given = _inputs_by_position(kernel, list(function.args), inputs)
    try:
        binding = bind_arguments(function, _bind_texts(bind))
    except BindError as err:
        raise DSLError(str(err).removeprefix("--bind "), kernel.location) from None
    full = make_inputs(function, seed, binding)
    full.update(given)
    with _located_simulation_problems():
        expected = run_reference(tile_module, full)
        result = run(module, full, chip=chip, seed=seed, trace=False)
    names = [name for name, _ in kernel.parameters()]
    match, comparison = compare_simulated(result, expected)
    rename = {f"arg{i}": n for i, n in enumerate(names)}
    return SimReport(
        cycles=result.cycles,
        races=[r.message() for r in result.races],
        deadlock=result.deadlock,
        unbalanced_flags=list(result.unbalanced_flags),
        reference_match=match,
        mismatches=[f"{rename.get(c['name'], c['name'])}: {error_size(c)}"
                    for c in comparison if not c["match"]],
        outputs={rename.get(n, n): v for n, v in result.outputs.items()},
        expected={rename.get(n, n): v for n, v in expected.items()},
        pipe_busy=dict(result.pipe_busy),
        raw=result,
        uninitialized_reads=[u.message() for u in result.uninitialized_reads],
    )
