"""`-t schedule-svg`: one steady-state window (II cycles) of every scheduled loop as an
SVG Gantt chart: a row per pipe, each task at `start mod II` for `ii` cycles (wrapping
around the window), coloured by stage, the flag drains the schedule reserved hatched in
their pipe's row (the pipe stands still there), the II marked (and, for a loop the
schedule unrolled U times, U and the cycles per source iteration). Same module, same bytes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO, Any
from xml.sax.saxutils import escape

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

from ascend_mlir import hardware
from ascend_mlir.targets.schedule_json import named_schedule_report

STAGE_COLOURS = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
                 "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac")
WINDOW_WIDTH = 720  # pixels for II cycles
LEFT = 70
ROW = 26
TITLE = 34
AXIS = 30
GAP = 24


def _fmt(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _loop_chart(name: str, loop: dict[str, Any], top: float) -> tuple[list[str], float]:
    ii = max(1, loop["ii"])
    used = {p for t in loop["tasks"] for p in t["pipe"].split("+")} | {d["pipe"] for d in loop["drains"]}
    pipes = [p for p in hardware.DATAFLOW_PIPES if p in used]
    scale = WINDOW_WIDTH / ii
    out: list[str] = []
    # the II written is the code's; where the solver's model chose another, both are shown
    solver = loop.get("solver_ii", loop["ii"])
    written = f", solver's II {solver}" if solver != loop["ii"] else ""
    one_pass = ", one-pass code" if loop.get("one_pass") else ""
    title = (f"loop {name}: II = {loop['ii']} (MII = {loop['mii']}, binding "
             f"{loop['binding']}, {loop['status']}{written}{one_pass})")
    out.append(f'<text class="title" x="{LEFT}" y="{_fmt(top + 20)}">{escape(title)}</text>')
    y0 = top + TITLE
    for row, pipe in enumerate(pipes):
        y = y0 + row * ROW
        out.append(f'<text class="pipe" x="{LEFT - 8}" y="{_fmt(y + ROW * 0.65)}">{pipe}</text>')
        out.append(f'<rect class="lane" x="{LEFT}" y="{_fmt(y)}" width="{WINDOW_WIDTH}" height="{ROW - 4}"/>')
    for t_index, task in enumerate(loop["tasks"]):
        for pipe in task["pipe"].split("+"):
            out.extend(_task_bars(t_index, task, y0 + pipes.index(pipe) * ROW, ii, scale))
    for drain in loop["drains"]:
        out.extend(_drain_bars(drain, y0 + pipes.index(drain["pipe"]) * ROW, ii, scale))
    return _finish(out, loop, pipes, y0, ii, scale, top)


def _arcs(start: int, cycles: int, ii: int) -> list[tuple[int, int]]:
    """(offset, width) pieces of a slot of `cycles` from `start`, wrapped into the window."""
    pieces = []
    offset, remaining = start % ii, min(cycles, ii)
    while remaining > 0:
        width = min(remaining, ii - offset)
        pieces.append((offset, width))
        remaining -= width
        offset = 0
    return pieces


def _drain_bars(drain: dict[str, Any], y: float, ii: int, scale: float) -> list[str]:
    flags = ", ".join(f'{drain["pipe"]}->{f["to"]}' + ("" if f["event"] is None else f' #{f["event"]}')
                      + ("" if f.get("kind", "flag") == "flag" else f' ({f["kind"]})')
                      for f in drain.get("flags", []))
    sets = f'; in the code: {drain["set_points"]} set point(s): {flags}' if drain.get("flags") else ""
    tip = escape(f'flag drain of {drain["pipe"]}: start {drain["start"]}, {drain["cycles"]} cycles{sets}')
    out = []
    for offset, width in _arcs(drain["start"], drain["cycles"], ii):
        x = LEFT + offset * scale
        out.append(f'<rect class="drain" x="{_fmt(x)}" y="{_fmt(y)}" width="{_fmt(width * scale)}" '
                   f'height="{ROW - 4}"><title>{tip}</title></rect>')
        if width * scale > 40:
            out.append(f'<text class="dlabel" x="{_fmt(x + 3)}" y="{_fmt(y + ROW * 0.6)}">drain</text>')
    return out


def _task_bars(t_index: int, task: dict[str, Any], y: float, ii: int, scale: float) -> list[str]:
    out: list[str] = []
    colour = STAGE_COLOURS[task["stage"] % len(STAGE_COLOURS)]
    label = escape(f'{t_index}: {task["op"].removeprefix("hivm.hir.")} s{task["stage"]}')
    tip = escape(f'{task["op"]} start {task["start"]} stage {task["stage"]} '
                 f'latency {task["latency"]} ii {task["ii"]}')
    for offset, width in _arcs(task["start"], task["ii"], ii):
        x = LEFT + offset * scale
        out.append(
            f'<rect class="task" x="{_fmt(x)}" y="{_fmt(y)}" width="{_fmt(width * scale)}" '
            f'height="{ROW - 4}" fill="{colour}"><title>{tip}</title></rect>'
        )
        if width * scale > 40:
            out.append(f'<text class="label" x="{_fmt(x + 3)}" y="{_fmt(y + ROW * 0.6)}">{label}</text>')
    return out


def _finish(out: list[str], loop: dict[str, Any], pipes: list[str], y0: float, ii: int,
            scale: float, top: float) -> tuple[list[str], float]:
    axis_y = y0 + len(pipes) * ROW
    out.append(f'<line class="axis" x1="{LEFT}" y1="{_fmt(axis_y)}" x2="{LEFT + WINDOW_WIDTH}" y2="{_fmt(axis_y)}"/>')
    for k in range(5):
        cycle = round(ii * k / 4)
        x = LEFT + cycle * scale
        out.append(f'<text class="tick" x="{_fmt(x)}" y="{_fmt(axis_y + 14)}">{cycle}</text>')
    x_ii = LEFT + WINDOW_WIDTH
    out.append(f'<line class="ii" x1="{x_ii}" y1="{_fmt(y0 - 4)}" x2="{x_ii}" y2="{_fmt(axis_y)}"/>')
    out.append(f'<text class="iilabel" x="{x_ii + 4}" y="{_fmt(y0 + 8)}">II = {loop["ii"]}</text>')
    unroll = loop.get("unroll", 1)
    if unroll > 1:
        # the window holds U iterations of the source loop: say so, and their cost each
        per = _fmt(loop["ii"] / unroll)
        out.append(f'<text class="iilabel" x="{x_ii + 4}" y="{_fmt(y0 + 22)}">unroll {unroll}: {per} / iteration</text>')
    stages = sorted({t["stage"] for t in loop["tasks"]})
    for k, stage in enumerate(stages):
        x = LEFT + k * 80
        colour = STAGE_COLOURS[stage % len(STAGE_COLOURS)]
        out.append(f'<rect x="{x}" y="{_fmt(axis_y + 20)}" width="12" height="12" fill="{colour}"/>')
        out.append(f'<text class="tick" x="{x + 16}" y="{_fmt(axis_y + 30)}">stage {stage}</text>')
    return out, axis_y + AXIS + 16 - top


def schedule_svg(report: dict[str, Any], names: list[list[str]]) -> str:
    """The chart of every loop of a schedule report (names per function, per loop)."""
    body: list[str] = []
    top = 8.0
    for function, loop_names in zip(report["functions"], names):
        for name, loop in zip(loop_names, function["loops"]):
            part, height = _loop_chart(name, loop, top)
            body.extend(part)
            top += height + GAP
    if not body:
        body.append(f'<text class="title" x="{LEFT}" y="28">no loops to schedule</text>')
        top = 48
    width = LEFT + WINDOW_WIDTH + 90
    head = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{_fmt(top)}" '
        f'viewBox="0 0 {width} {_fmt(top)}" font-family="monospace" font-size="11">',
        "<style>"
        ".title{font-size:13px;font-weight:bold}"
        ".pipe{text-anchor:end}"
        ".lane{fill:#f4f4f4}"
        ".task{stroke:#222;stroke-width:0.5}"
        ".label{fill:#fff}"
        ".drain{fill:url(#hatch);stroke:#888;stroke-width:0.5}"
        ".dlabel{fill:#555}"
        ".axis{stroke:#444}"
        ".tick{fill:#444}"
        ".ii{stroke:#d00;stroke-width:2;stroke-dasharray:4 2}"
        ".iilabel{fill:#d00}"
        "</style>",
        '<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="6" height="6" fill="#e6e6e6"/>'
        '<line x1="0" y1="0" x2="0" y2="6" stroke="#999" stroke-width="2"/></pattern></defs>',
    ]
    return "\n".join(head + body + ["</svg>"]) + "\n"


@dataclass(frozen=True)
class ScheduleSvgTarget(Target):
    name = "schedule-svg"

    chip: str | None = None
    chip_file: str | None = None

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        report = named_schedule_report(module, self.name, self.chip, self.chip_file)
        output.write(schedule_svg(*report))
