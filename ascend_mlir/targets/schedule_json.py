"""`-t schedule-json`: the schedule ascend-modulo-schedule attached to a module, as JSON.

Schema (DESIGN.md section 9), keys exactly these, in this order:
`{"functions":[{"name", "loops":[{"ii","solver_ii","mii","res_mii":{pipe:n},"rec_mii","binding",
"status","unroll","one_pass","tasks":[{"op","pipe","latency","ii","stage","start"}],
"buffers":[{"name","scope","bytes","versions"}],
"drains":[{"pipe","start","cycles","set_points","flags":[{"kind","to","event"}]}]}]}]}`
(ii: the II written, what the loop's code runs at; solver_ii: the II the solver chose for
its model of the loop, the same unless the code of that schedule replays at another II
and that one is written (`ascend.solver_ii`: the two drain models disagree there);
unroll: the factor U by which the schedule unrolled the loop, 1 when it did not: the
loop's tasks are then U copies of the source body and its II is the cycles of U
iterations; one_pass: the schedule is the timing of one-pass code (`ascend.one_pass`:
the body emitted in start order, one pass per iteration); drains: the flag drains the
schedule reserved, slots no op of the body holds, one per publishing pipe, each with
what the code (after ascend-insert-sync) has in their place: the pipe's sets in the
loop body (`kind` "flag": a set_flag, `to` the waiting pipe, `event` its static id, null
for a ring of ids; "block": a sync_block_set to the other core's pipe `to`, `event` its
flag id; "barrier": a pipe_barrier of the pipe, event null) and `set_points`, the places
in the body where they stand (sets not separated by another op of the pipe are one
point, one drain); both empty / 0 before insert-sync, and 0 in the half of a split
MIX kernel whose core does not hold the pipe (each half keeps the loop's schedule). No solve time: it differs from
run to run; `ascend-modulo-schedule{report-solve-time=true}` reports it as a remark).
Functions and loops in program order (loops pre-order), tasks in body order, buffers
in allocation order; the output is the same bytes for the same module.
It reads only the typed schedule (`ascend` dialect): the loop model is not rebuilt.
It reads a compiled module too (after ascend-plan-memory, -multi-buffer,
-pipeline-loops): a planned buffer is a pointer_cast that kept its `#ascend.buffer`, a
multi-buffered one the version view ascend-multi-buffer made (address periodic in
`iv mod versions`); the copies peeled into a prologue or epilogue are not the loop's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import IO, Any

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.utils.target import Target

from ascend_mlir import hardware
from ascend_mlir.analysis.accesses import buffer_name, function_allocs, primary_pipe
from ascend_mlir.analysis.aliasing import Mod
from ascend_mlir.analysis.latency_model import element_bytes
from ascend_mlir.analysis.loop_model import buffer_loop, innermost_loop_holding, loop_name
from ascend_mlir.analysis.views import affine_of, users_through_views
from ascend_mlir.chips import ChipError, resolve_chip
from ascend_mlir.diagnostics import op_error
from ascend_mlir.dialects import ascend, hivm

def _pipe_label(op: Operation) -> str:
    """The pipes a task holds in the modulo window, as the scheduler saw them: a hivm op
    its main pipe, a nested loop or if every pipe used inside it ("MTE2+V+MTE3")."""
    if isinstance(op, scf.ForOp | scf.IfOp):
        used = {p for inner in op.walk() for p in hivm.op_pipes(inner)}
        return "+".join(p for p in hardware.DATAFLOW_PIPES if p in used) or "S"
    return primary_pipe(hivm.op_pipes(op))


def _loop_tasks(loop: scf.ForOp) -> list[Operation]:
    return [op for op in loop.body.block.ops if ascend.task_of(op) is not None]


def _loop_buffers(func_op: func.FuncOp, loop: scf.ForOp) -> list[tuple[str, Operation, int]]:
    """(name, defining op, versions) of the buffers whose versions follow this loop, in
    allocation order: unplanned allocs with `#ascend.buffer`, then (in a planned or
    compiled module) pointer_casts, each buffer once."""
    out = []
    for index, alloc in enumerate(function_allocs(func_op)):
        if ascend.has_versions(alloc.owner) and buffer_loop(alloc) is loop:  # type: ignore[arg-type]
            out.append((buffer_name(alloc, index), alloc.owner, ascend.versions_of(alloc.owner)))  # type: ignore[arg-type]
    seen = {name for name, _, _ in out}
    for cast in (o for o in func_op.walk() if isinstance(o, hivm.PointerCastOp)):
        found = _planned_buffer(cast)
        if found is None or found[0] in seen or _scheduled_loop(cast.result) is not loop:
            continue
        seen.add(found[0])
        out.append((found[0], cast, found[1]))
    return out


def _planned_buffer(cast: hivm.PointerCastOp) -> tuple[str, int] | None:
    """(name, versions) of a planned buffer: a pointer_cast that kept the schedule's
    `#ascend.buffer` (ascend-plan-memory), or one version view of a multi-buffer
    (ascend-multi-buffer's `<name>_v`, whose address is periodic in `iv mod versions`)."""
    name = cast.result.name_hint or "?"
    if ascend.has_versions(cast):
        return name, ascend.versions_of(cast)
    if len(cast.addrs) != 1:
        return None
    moduli = [k.modulus for k, _ in affine_of(cast.addrs[0]).terms if isinstance(k, Mod)]
    if not moduli:
        return None
    return name.removesuffix("_v"), max(moduli)


def _scheduled_loop(value: SSAValue) -> scf.ForOp | None:
    """The innermost loop holding every use of a buffer by the tasks of scheduled loops:
    not the copies of a loop's tasks peeled beside it (a prologue or epilogue of
    ascend-pipeline-loops, the first K step of peel-mmad-init), which keep their task."""
    inside = [u for u in users_through_views(value) if _in_scheduled_loop(u) and not _peeled_copy(u)]
    return innermost_loop_holding(inside)


def _peeled_copy(op: Operation) -> bool:
    """`op` (or an op holding it) is a copy of a task of a scheduled loop in its own
    block: the same op with the same `#ascend.task` cost as one in that loop's body (a
    copy peeled by peel-mmad-init takes the loop's own slot, so only the cost is compared)."""
    while op.parent_op() is not None:
        cost = _cost(op)
        block = op.parent_block()
        if cost is not None and block is not None:
            for loop in (o for o in block.ops if isinstance(o, scf.ForOp) and ascend.loop_of(o) is not None):
                if any(q.name == op.name and _cost(q) == cost for q in loop.body.block.ops):
                    return True
        op = op.parent_op()  # type: ignore[assignment]
    return False


def _cost(op: Operation) -> tuple[int, int] | None:
    task = ascend.task_of(op)
    return None if task is None else (task.latency, task.ii)


def _in_scheduled_loop(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, scf.ForOp) and ascend.loop_of(parent) is not None:
            return True
        parent = parent.parent_op()
    return False


def _buffer_bytes(alloc: Operation, chip) -> tuple[str, int]:
    t = alloc.results[0].type
    scope = hivm.scope_of(t) or "?"
    assert isinstance(t, MemRefType)
    return scope, chip.aligned_size(scope, hardware.stored_bytes(scope, t.get_shape(), element_bytes(t.element_type)))


def _loops_preorder(op: Operation) -> list[scf.ForOp]:
    return [o for o in op.walk() if isinstance(o, scf.ForOp)]


def schedule_report(
    module: ModuleOp,
    target_name: str = "schedule-json",
    chip: str | None = None,
    chip_file: str | None = None,
) -> dict[str, Any]:
    """The schedule of every loop of every function, as plain data (see module doc)."""
    return named_schedule_report(module, target_name, chip, chip_file)[0]


def named_schedule_report(
    module: ModuleOp, target_name: str, chip: str | None = None, chip_file: str | None = None,
    *, lenient: bool = False,
) -> tuple[dict[str, Any], list[list[str]]]:
    """The report and, per function, the names of its loops (`<function>.<iv name>`).

    The chip (only its alignments matter here: buffer bytes) is chosen as by the pass. A
    loop without a schedule, or a task whose slot does not fit its loop's II, is an error;
    `lenient` (the frontend's report of a compiled module, which needs each loop's II
    and buffers, not its tasks) leaves such a loop out and does not check the slots."""
    try:
        chip_desc = resolve_chip(module, chip or None, chip_file or None)
    except ChipError as e:
        raise op_error(module, str(e)) from None
    functions = []
    names: list[list[str]] = []
    for func_op in (o for o in module.walk() if isinstance(o, func.FuncOp)):
        loops = []
        loop_names = []
        for index, loop in enumerate(_loops_preorder(func_op)):
            if lenient and ascend.loop_of(loop) is None:
                continue
            loops.append(_loop_report(func_op, loop, chip_desc, target_name, check_slots=not lenient))
            loop_names.append(loop_name(loop, index))
        functions.append({"name": func_op.sym_name.data, "loops": loops})
        names.append(loop_names)
    return {"functions": functions}, names


def _loop_report(func_op: func.FuncOp, loop: scf.ForOp, chip, target_name: str,
                 check_slots: bool = True) -> dict[str, Any]:
    sched = ascend.loop_of(loop)
    if sched is None:
        raise op_error(
            loop,
            f"has no schedule ({target_name} prints what ascend-modulo-schedule computed:"
            " run it first, e.g. -p ascend-estimate-latency,ascend-modulo-schedule)",
        )
    ops = _loop_tasks(loop)
    for error in ascend.loop_slot_errors(loop, ops) if check_slots else ():
        raise op_error(error.op, error.message)
    tasks = []
    for op in ops:
        task = ascend.task_of(op)
        assert task is not None
        tasks.append({
            "op": op.name,
            "pipe": _pipe_label(op),
            "latency": task.latency,
            "ii": task.ii,
            "stage": task.stage,
            "start": task.start,
        })
    buffers = []
    for name, alloc, versions in _loop_buffers(func_op, loop):
        scope, nbytes = _buffer_bytes(alloc, chip)
        buffers.append({"name": name, "scope": scope, "bytes": nbytes, "versions": versions})
    solver_ii = ascend.solver_ii_of(loop)
    return {
        "ii": sched.ii,
        "solver_ii": sched.ii if solver_ii is None else solver_ii,
        "mii": sched.mii,
        "res_mii": sched.res_mii,
        "rec_mii": sched.rec_mii,
        "binding": sched.binding,
        "status": sched.status,
        "unroll": ascend.unroll_of(loop),
        "one_pass": ascend.is_one_pass(loop),
        "tasks": tasks,
        "buffers": buffers,
        "drains": [_drain_report(loop, d) for d in ascend.drains_of(loop)],
    }


def _body_ops(loop: scf.ForOp) -> list[Operation]:
    """The ops of one pass of `loop` in program order, those of nested loops left out
    (a nested loop's sets are its own schedule's)."""
    out = []
    for op in loop.body.walk():
        parent = op.parent_op()
        while parent is not None and not isinstance(parent, scf.ForOp):
            parent = parent.parent_op()
        if parent is loop:
            out.append(op)
    return out


def _drain_report(loop: scf.ForOp, drain: ascend.Drain) -> dict[str, Any]:
    """A drain reservation and the sets of its pipe the code has in the loop body."""
    flags: list[dict[str, Any]] = []
    points = 0
    at_point = False
    for op in _body_ops(loop):
        if isinstance(op, hivm.SetFlagOp) and op.set_pipe.pipe_name == drain.pipe:
            flags.append({"kind": "flag", "to": op.wait_pipe.pipe_name, "event": op.event_id})
        elif isinstance(op, hivm.SyncBlockSetOp) and op.tpipe.pipe_name == drain.pipe:
            flags.append({"kind": "block", "to": op.pipe.pipe_name, "event": op.flag_id})
        elif isinstance(op, hivm.PipeBarrierOp) and op.pipe.pipe_name == drain.pipe:
            flags.append({"kind": "barrier", "to": drain.pipe, "event": None})
        else:
            if drain.pipe in hivm.op_pipes(op):
                at_point = False  # an op of the pipe: the next set is a new point
            continue
        points += 0 if at_point else 1
        at_point = True
    return {"pipe": drain.pipe, "start": drain.start, "cycles": drain.cycles, "set_points": points, "flags": flags}


@dataclass(frozen=True)
class ScheduleJsonTarget(Target):
    name = "schedule-json"

    chip: str | None = None
    chip_file: str | None = None

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        report = schedule_report(module, self.name, self.chip, self.chip_file)
        output.write(json.dumps(report, indent=2))
        output.write("\n")
