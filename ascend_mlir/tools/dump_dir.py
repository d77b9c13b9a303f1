"""`ascend-opt --dump-dir DIR`: every intermediate result of a run, numbered in order.

    DIR/00-input.mlir
    DIR/01-ascend-compile.convert-tile-to-hivm.mlir     a stage inside a composite pass
    DIR/02-ascend-compile.ascend-insert-barrier-sync.mlir
    DIR/03-ascend-compile.mlir                          the IR after each pass
    DIR/04-schedule.json, 05-schedule.svg               the modulo schedule
    DIR/06-trace.json, 07-trace.svg                     the simulator's trace of block 0
    DIR/index.txt                                       one line per file: what it is

The schedule files are written from the first IR that carries a schedule (loops with
`ascend.ii`); when no pass scheduled (program-order compilation), they show the
schedule `ascend-modulo-schedule` computes for the first unscheduled hivm IR, and
index.txt says so. The trace is written when the final IR is a hivm-level kernel (the
simulator's Chrome/Perfetto JSON and SVG timeline). Files are the same bytes for the same
input (IR printed without wall-clock data; schedule `solve_ms` is the solver's own field).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException

from ascend_mlir.dialects import ascend


# the names a dump writes: NN-what, chunkK-NN-what, index.txt, chunkK-index.txt
_DUMP_FILE = re.compile(r"^(chunk\d+-)?(\d{2,}-.+|index\.txt)$")


def start_clean(path: str) -> str | None:
    """Make `path` ready for a new dump: files a previous dump wrote there are removed
    (a run never leaves the last run's stages beside its own); a directory holding other
    files is refused. None, or why `path` cannot be used."""
    if not os.path.exists(path):
        return None
    if not os.path.isdir(path):
        return f"'{path}' exists and is not a directory"
    names = sorted(os.listdir(path))
    foreign = [n for n in names if not _DUMP_FILE.match(n) or not os.path.isfile(os.path.join(path, n))]
    if foreign:
        shown = ", ".join(foreign[:3]) + (", ..." if len(foreign) > 3 else "")
        return (f"'{path}' holds files no dump wrote ({shown}): name a new or empty directory, "
                "or one an earlier --dump-dir wrote")
    for name in names:
        os.remove(os.path.join(path, name))
    return None


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_.{}=" else "_" for c in name)


def _has_schedule(module: ModuleOp) -> bool:
    return any(isinstance(op, scf.ForOp) and ascend.loop_of(op) is not None for op in module.walk())


def _is_hivm_kernel(module: ModuleOp) -> bool:
    names = {op.name for op in module.walk()}
    return not any(n.startswith("tile.") for n in names) and any(n.startswith("hivm.hir.") for n in names)


def _is_unscheduled_hivm(module: ModuleOp) -> bool:
    names = {op.name for op in module.walk()}
    return _is_hivm_kernel(module) and not any(
        n in ("hivm.hir.pipe_barrier", "hivm.hir.set_flag", "hivm.hir.wait_flag") for n in names)


@dataclass
class DumpDir:
    """Writes the numbered files of one run (one input chunk) into `path`."""

    path: str
    ctx: Context
    prefix: str = ""
    counter: int = 0
    index: list[str] = field(default_factory=list)
    schedule_written: bool = False
    unscheduled: ModuleOp | None = None

    def __post_init__(self) -> None:
        os.makedirs(self.path, exist_ok=True)

    def _write(self, name: str, text: str, what: str) -> None:
        filename = f"{self.prefix}{self.counter:02d}-{_safe(name)}"
        with open(os.path.join(self.path, filename), "w", encoding="utf-8") as f:
            f.write(text)
        self.index.append(f"{filename}: {what}")
        self.counter += 1

    def ir(self, name: str, module: ModuleOp, what: str) -> None:
        from io import StringIO

        stream = StringIO()
        Printer(stream=stream).print_op(module)
        self._write(f"{name}.mlir", stream.getvalue() + "\n", what)
        if self.unscheduled is None and _is_unscheduled_hivm(module):
            self.unscheduled = module.clone()
        if not self.schedule_written and _has_schedule(module):
            self._schedule(module, f"the schedule carried by the IR after {name}")

    def _schedule(self, module: ModuleOp, what: str) -> None:
        from io import StringIO

        from ascend_mlir.targets.schedule_json import ScheduleJsonTarget
        from ascend_mlir.targets.schedule_svg import ScheduleSvgTarget

        texts = []
        try:
            for target in (ScheduleJsonTarget(), ScheduleSvgTarget()):
                stream = StringIO()
                target.emit(self.ctx, module, stream)
                texts.append(stream.getvalue())
        except DiagnosticException as err:
            self.index.append(f"(no schedule files: {err})")
            self.schedule_written = True
            return
        self._write("schedule.json", texts[0], f"{what} (JSON, DESIGN.md section 9)")
        self._write("schedule.svg", texts[1], f"{what} (one steady-state window per loop)")
        self.schedule_written = True

    def finish(self, module: ModuleOp) -> None:
        """After the last pass: the schedule if none was written yet, the simulator trace,
        and index.txt."""
        if not self.schedule_written and self.unscheduled is not None:
            self._computed_schedule(self.unscheduled)
        if _is_hivm_kernel(module):
            self._trace(module)
        else:
            self.index.append("(no trace: the final IR is not a hivm-level kernel; "
                              "run -p ascend-compile to get one)")
        with open(os.path.join(self.path, f"{self.prefix}index.txt"), "w", encoding="utf-8") as f:
            f.write("\n".join(self.index) + "\n")

    def _computed_schedule(self, module: ModuleOp) -> None:
        from ascend_mlir.transforms.estimate_latency import EstimateLatencyPass
        from ascend_mlir.transforms.modulo_schedule import ModuloSchedulePass

        if not any(isinstance(op, scf.ForOp) for op in module.walk()):
            self.index.append("(no schedule files: the kernel has no loop)")
            return
        try:
            EstimateLatencyPass().apply(self.ctx, module)
            ModuloSchedulePass().apply(self.ctx, module)
        except DiagnosticException as err:
            self.index.append(f"(no schedule files: ascend-modulo-schedule failed: {err})")
            return
        self._schedule(module, "no pass scheduled the loops (program order): the schedule "
                               "ascend-modulo-schedule computes for the unscheduled hivm IR")

    def _trace(self, module: ModuleOp) -> None:
        from ascend_mlir.sim.simulator import chrome_trace, simulate, svg_timeline

        try:
            result = simulate(module.clone(), None, blocks=1, trace=True)
        except (DiagnosticException, ValueError, NotImplementedError) as err:
            self.index.append(f"(no trace: the simulator could not run the final IR: {err})")
            return
        summary = (f"{result.cycles} cycles, {len(result.races)} race(s)"
                   f"{', deadlock' if result.deadlock else ''}")
        self._write("trace.json", chrome_trace(result.trace),
                    f"simulator trace of block 0 (Chrome/Perfetto JSON): {summary}")
        self._write("trace.svg", svg_timeline(result.trace, result.cycles),
                    "simulator pipe timeline of block 0 (SVG)")
