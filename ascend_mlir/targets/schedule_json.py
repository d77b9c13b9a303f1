"""`-t schedule-json`: the schedule ascend-modulo-schedule attached to a module, as JSON.

Schema (DESIGN.md section 9), keys exactly these, in this order:
`{"functions":[{"name", "loops":[{"ii","mii","res_mii":{pipe:n},"rec_mii","binding",
"status","solve_ms","tasks":[{"op","pipe","latency","ii","stage","start"}],
"buffers":[{"name","scope","bytes","versions"}]}]}]}`.
Functions and loops in program order (loops pre-order), tasks in body order, buffers
in allocation order; the output is the same bytes for the same module.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import IO, Any

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.utils.target import Target

from ascend_mlir.analysis.loop_model import build_loop_model, loop_name, scheduled_loop_cost
from ascend_mlir.chips import ChipError, resolve_chip
from ascend_mlir.diagnostics import op_error
from ascend_mlir.scheduling import PIPES

LOOP_ATTRS = ("ascend.ii", "ascend.mii", "ascend.status", "ascend.res_mii", "ascend.rec_mii",
              "ascend.binding", "ascend.solve_ms")


def _int_attr(op: Operation, name: str) -> int:
    attr = op.attributes.get(name)
    if not isinstance(attr, IntegerAttr):
        raise op_error(op, f"has no integer attribute {name}; run ascend-modulo-schedule first")
    return attr.value.data


def _str_attr(op: Operation, name: str) -> str:
    attr = op.attributes.get(name)
    if not isinstance(attr, StringAttr):
        raise op_error(op, f"has no string attribute {name}; run ascend-modulo-schedule first")
    return attr.data


def _pipe_dict(res: DictionaryAttr) -> dict[str, int]:
    values = {k: v.value.data for k, v in res.data.items() if isinstance(v, IntegerAttr)}
    order = {p: i for i, p in enumerate(PIPES)}
    return {k: values[k] for k in sorted(values, key=lambda p: (order.get(p, len(order)), p))}


def _loops_preorder(op: Operation) -> list[scf.ForOp]:
    return [o for o in op.walk() if isinstance(o, scf.ForOp)]


def _pre_order_index(func_op: func.FuncOp) -> dict[scf.ForOp, int]:
    return {loop: i for i, loop in enumerate(_loops_preorder(func_op))}


@dataclass
class LoopReport:
    loop: scf.ForOp
    data: dict[str, Any]


def schedule_report(
    module: ModuleOp,
    target_name: str = "schedule-json",
    chip: str | None = None,
    chip_file: str | None = None,
) -> dict[str, Any]:
    """The schedule of every loop of every function, as plain data (see module doc)."""
    return named_schedule_report(module, target_name, chip, chip_file)[0]


def named_schedule_report(
    module: ModuleOp, target_name: str, chip: str | None = None, chip_file: str | None = None
) -> tuple[dict[str, Any], list[list[str]]]:
    """The report and, per function, the names of its loops (`<function>.<iv name>`).

    The chip (only its alignments matter here: buffer bytes) is chosen as by the pass."""
    try:
        chip_desc = resolve_chip(module, chip or None, chip_file or None)
    except ChipError as e:
        raise op_error(module, str(e)) from None
    functions = []
    names: list[list[str]] = []
    for func_op in (o for o in module.walk() if isinstance(o, func.FuncOp)):
        indices = _pre_order_index(func_op)
        loops = []
        loop_names = []
        for loop in _loops_preorder(func_op):
            loops.append(_loop_report(loop, indices[loop], chip_desc, target_name))
            loop_names.append(loop_name(loop, indices[loop]))
        functions.append({"name": func_op.sym_name.data, "loops": loops})
        names.append(loop_names)
    return {"functions": functions}, names


def _loop_report(loop: scf.ForOp, index: int, chip, target_name: str) -> dict[str, Any]:
    if "ascend.ii" not in loop.attributes:
        raise op_error(
            loop,
            f"has no schedule ({target_name} prints what ascend-modulo-schedule computed:"
            " run it first, e.g. -p ascend-estimate-latency,ascend-modulo-schedule)",
        )
    res = loop.attributes.get("ascend.res_mii")
    if not isinstance(res, DictionaryAttr):
        raise op_error(loop, "has no dictionary attribute ascend.res_mii; run ascend-modulo-schedule first")
    model = build_loop_model(loop, chip, scheduled_loop_cost, index)
    tasks = []
    for task in model.tasks:
        tasks.append({
            "op": task.op.name,
            "pipe": task.pipe_label,
            "latency": task.info.latency,
            "ii": task.info.ii,
            "stage": _int_attr(task.op, "ascend.stage"),
            "start": _int_attr(task.op, "ascend.start"),
        })
    buffers = []
    for buf in model.buffers:
        alloc = buf.root.owner
        buffers.append({
            "name": buf.name,
            "scope": buf.scope,
            "bytes": buf.bytes,
            "versions": _int_attr(alloc, "ascend.versions"),  # type: ignore[arg-type]
        })
    return {
        "ii": _int_attr(loop, "ascend.ii"),
        "mii": _int_attr(loop, "ascend.mii"),
        "res_mii": _pipe_dict(res),
        "rec_mii": _int_attr(loop, "ascend.rec_mii"),
        "binding": _str_attr(loop, "ascend.binding"),
        "status": _str_attr(loop, "ascend.status"),
        "solve_ms": _int_attr(loop, "ascend.solve_ms"),
        "tasks": tasks,
        "buffers": buffers,
    }


@dataclass(frozen=True)
class ScheduleJsonTarget(Target):
    name = "schedule-json"

    chip: str | None = None
    chip_file: str | None = None

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        report = schedule_report(module, self.name, self.chip, self.chip_file)
        output.write(json.dumps(report, indent=2))
        output.write("\n")
